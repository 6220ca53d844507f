"""The table's parts kept once drawn (``{% memo %}``) are exactly what drawing them afresh gives.

A ``memo`` tag that forgot a value its part reads would leave that part
stale. Whole matches are played here and, at every event, each viewer's
picture is drawn twice: with the kept renderings, and with every part drawn
afresh. Every part must be the same.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from games import rules
from games.bots import choose_action
from games.match import services
from games.match.models import Match, Seat
from games.table import render
from games.table.live import Picture, draw
from games.table.render import read_match
from games.templatetags.memo import forget, memo_disabled
from tests.support.drivers import started_match


@pytest.fixture(autouse=True)
def _fresh() -> None:
    forget()


def both_ways(monkeypatch: pytest.MonkeyPatch, reading: Any, user: Any, language: str) -> Picture:
    """``user``'s picture drawn with the kept parts and afresh, at one moment; checks them."""
    now = timezone.now()
    # The same moment for both, so that the countdowns agree.
    monkeypatch.setattr(render, "timezone", SimpleNamespace(now=lambda: now))
    kept = draw(reading, user, language=language)
    with memo_disabled():
        fresh = draw(reading, user, language=language)
    monkeypatch.setattr(render, "timezone", timezone)
    for name, html in fresh.parts.items():
        assert kept.parts.get(name) == html, f"event {reading.seq}, {user}: {name} is stale"
    assert kept.parts.keys() == fresh.parts.keys()
    assert kept.css_class == fresh.css_class
    return kept


def play_to_the_end(
    monkeypatch: pytest.MonkeyPatch,
    outcome: services.Outcome,
    viewers: list[tuple[Any, str]],
    events: int | None = None,
) -> int:
    """Play the match with random legal actions (``events`` of them at most), comparing
    the pictures at each event; returns how many were compared."""
    rng = random.Random(11)
    match_id = outcome.match.pk
    compared = 0
    while True:
        reading = read_match(match_id)
        for user, language in viewers:
            both_ways(monkeypatch, reading, user, language)
            compared += 1
        if reading.match.status != Match.Status.PLAYING or reading.seq == events:
            return compared
        state = reading.state
        if state.phase is rules.Phase.ROUND_OVER or state.turn is None:
            services.deal_next(match_id, reading.seq)
            continue
        if rng.random() < 0.8:
            action = choose_action(state, state.turn, level="easy")
        else:
            action = rng.choice(rules.legal_actions(state))
        services.submit_as_seat(match_id, state.turn, action, reading.seq)


@pytest.mark.django_db
def test_kept_parts_match_freshly_drawn_ones_through_a_whole_match(players, make_user, monkeypatch):
    outcome = started_match(players)
    watcher = make_user("wendy")
    viewers = [(players[1], "en"), (players[2], "en"), (watcher, "en")]
    compared = play_to_the_end(monkeypatch, outcome, viewers)
    assert compared > 300


@pytest.mark.django_db
def test_kept_parts_are_kept_per_language(players, monkeypatch):
    outcome = started_match(players)
    # Drawn in English first: those renderings must not show in Arabic.
    viewers = [(players[1], "en"), (players[1], "ar"), (players[3], "ar")]
    play_to_the_end(monkeypatch, outcome, viewers, events=80)


@pytest.mark.django_db
def test_kept_parts_follow_seats_that_step_away_and_a_running_clock(players, monkeypatch):
    outcome = started_match(players)
    Seat.objects.filter(match=outcome.match, number__in=(2, 3)).update(away=True)
    later = timezone.now() + timezone.timedelta(days=1)
    match_id = outcome.match.pk
    for _ in range(60):
        reading = read_match(match_id)
        for user in (players[1], players[2]):
            both_ways(monkeypatch, reading, user, "en")
        if services.play_due_turn(match_id, now=later) is None:
            break
