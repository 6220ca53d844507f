"""Announced steps: a process that keeps a match follows it without the database, and
shows exactly what a fresh reading shows."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import rules
from games.match import broadcast, services, steps
from games.match.models import Event, Match
from games.match.versions import MatchVersion
from games.match.versions import read as read_match
from games.table.context import viewer_of
from games.table.live import Hub, draw
from tests.support.drivers import started_match

pytestmark = pytest.mark.django_db(transaction=True)

# Far enough ahead that every turn is due: the timer plays for people, bots play.
LATER = datetime(2100, 1, 1, tzinfo=UTC)
# The moment every picture is drawn at, so that countdowns compare.
DRAWN_AT = datetime(2099, 12, 31, tzinfo=UTC)


@pytest.fixture
def announced(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every group message sent, with its step as it would cross to another process."""
    messages: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "steps_travel", lambda: True)
    monkeypatch.setattr(broadcast, "_send", messages.extend)
    return messages


def move(match_id: int, players: dict[int, Any], rng: random.Random) -> None:
    """One change: a seat's own action, a due turn (the timer or a bot), or a player
    stepping away or coming back."""
    reading = read_match(match_id)
    state = reading.state
    roll = rng.random()
    turn = state.turn
    if turn is None or state.phase is rules.Phase.ROUND_OVER or roll < 0.35:
        services.play_due_turn(match_id, now=LATER)
        return
    user = players[turn]
    if roll < 0.40:
        services.leave_seat(user, match_id)
        return
    if roll < 0.45:
        services.come_back(user, match_id)
        return
    action = dict(rng.choice(rules.legal_actions(state)))
    action.pop("seat")
    services.submit(user, match_id, action, reading.seq)


def follow(hub: Hub, match_id: int, message: dict[str, Any]) -> bool:
    """What a consumer does with an announcement; True when the step was taken."""
    step = message.get("next")
    if step is not None and hub.advance(match_id, message["seq"], message.get("rev"), step):
        return True
    hub.version(match_id, message["seq"], message.get("rev"))
    return False


def rows(reading: MatchVersion) -> tuple[Any, ...]:
    """Everything a reading holds besides its state, as stored values."""
    match = [getattr(reading.match, name) for name, _time in steps.MATCH_COLUMNS]
    seats = [
        (steps.seat_values(seat), seat.user.get_username() if seat.user else None)
        for _n, seat in sorted(reading.seats.items())
    ]
    return match, seats


def assert_same_pictures(kept: MatchVersion, fresh: MatchVersion, viewers: list[Any]) -> None:
    with mock.patch("django.utils.timezone.now", return_value=DRAWN_AT):
        for viewer in viewers:
            ours = draw(kept, viewer_of(kept, viewer, language="en"))
            theirs = draw(fresh, viewer_of(fresh, viewer, language="en"))
            assert ours.parts == theirs.parts
            assert (ours.view, ours.css_class) == (theirs.view, theirs.css_class)


@pytest.mark.parametrize("pause", [0, 5])
def test_a_match_followed_by_its_steps_looks_as_read_after_every_event(
    players, make_user, announced, settings, pause
):
    """Four seats and a spectator, through deals, timeouts, away seats and comebacks."""
    settings.ROUND_PAUSE_SECONDS = pause
    rng = random.Random(pause + 11)
    spectator = make_user("sally")
    viewers = [players[1], players[2], players[3], players[4], spectator]
    match_id = started_match(players).match.pk
    hub = Hub()
    assert hub.join(match_id, spectator.pk)
    hub.version(match_id, 0, None, fresh=True)
    announced.clear()
    taken = hidden = seats_only = 0
    # The event the kept version is at: each announcement's events come after it.
    seen = Match.objects.get(pk=match_id).seq
    away = False
    deals = Match.objects.get(pk=match_id).deal_number
    while Match.objects.get(pk=match_id).deal_number < deals + 2:
        move(match_id, players, rng)
        for message in announced:
            # Every step follows on from the version kept, so every step is taken.
            taken_now = follow(hub, match_id, message)
            assert taken_now == ("next" in message)
            recorded = list(
                Event.objects.filter(match_id=match_id, seq__gt=seen, seq__lte=message["seq"])
            )
            seen = max(seen, message["seq"])
            if not recorded:
                # A seat stepped away or came back: no event, so no step.
                seats_only += not taken_now
            elif all(steps.is_public(event.kind, event.payload) for event in recorded):
                # Every change of public events alone travels as a step.
                assert taken_now
            else:
                # A deal or a declaration never travels (its cards are hidden).
                assert not taken_now
                hidden += 1
            taken += taken_now
        announced.clear()
        fresh = read_match(match_id)
        kept = hub.known(match_id, fresh.seq, None)
        assert kept is not None
        assert kept.seq == fresh.seq
        assert kept.state == fresh.state
        assert rows(kept) == rows(fresh)
        assert_same_pictures(kept, fresh, viewers)
        away |= any(seat.away for seat in kept.seats.values())
    # Besides the deals and declarations, only the changes of the seats alone were read.
    assert taken > 4 * seats_only
    assert hidden
    assert away


def test_taking_a_step_reads_nothing(players, announced):
    match_id = started_match(players).match.pk
    hub = Hub()
    assert hub.join(match_id, players[1].pk)
    hub.version(match_id, 0, None, fresh=True)
    announced.clear()
    services.play_due_turn(match_id, now=LATER)
    (message,) = announced
    with CaptureQueriesContext(connection) as queries:
        assert hub.advance(match_id, message["seq"], message["rev"], message["next"])
        assert hub.known(match_id, message["seq"], message["rev"]) is not None
    assert len(queries) == 0


def test_a_step_that_does_not_follow_on_is_left_to_the_database(players, announced):
    match_id = started_match(players).match.pk
    hub = Hub()
    assert hub.join(match_id, players[1].pk)
    hub.version(match_id, 0, None, fresh=True)
    announced.clear()
    services.play_due_turn(match_id, now=LATER)
    services.play_due_turn(match_id, now=LATER)
    first, second = announced
    # The first announcement went missing: the second does not follow on.
    assert not hub.advance(match_id, second["seq"], second["rev"], second["next"])
    assert hub.known(match_id, second["seq"], second["rev"]) is None
    # A step whose events do not fit the kept state is not taken either.
    wrong = steps.opened(first["next"])
    assert wrong is not None
    wrong["events"] = [["action", 1, {"seat": 1, "play": "XX"}]]
    assert not hub.advance(match_id, first["seq"], first["rev"], steps.seal(wrong))
    assert not hub.advance(match_id, first["seq"], first["rev"], {"base": "nonsense"})
    # The right step still is.
    assert hub.advance(match_id, first["seq"], first["rev"], first["next"])
    assert hub.advance(match_id, second["seq"], second["rev"], second["next"])
    assert hub.known(match_id, second["seq"], second["rev"]).state == read_match(match_id).state


def test_a_step_never_carries_a_deal_or_a_declaration(players, announced, settings):
    settings.ROUND_PAUSE_SECONDS = 0
    outcome = started_match(players)
    match_id = outcome.match.pk
    announced.clear()
    # To the end of the deal, whose last action deals the next one.
    deal = outcome.match.deal_number
    while Match.objects.get(pk=match_id).deal_number == deal:
        services.play_due_turn(match_id, now=LATER)
    carried = [steps.opened(message["next"]) for message in announced if "next" in message]
    assert carried
    for step in carried:
        assert step is not None
        for kind, _version, payload in step["events"]:
            assert kind == "action"
            assert "declare" not in payload
    # The deal's last card, which dealt the next hand, came without a step.
    assert "next" not in announced[-1]


def test_a_batch_sends_each_step_as_its_turn_commits(players, announced, monkeypatch):
    # However long the turns take, the batch only holds the outbox clean-up.
    monkeypatch.setattr(broadcast, "BATCH_WAIT", 3600.0)
    monkeypatch.setattr(broadcast, "_own_loop", None)
    match_id = started_match(players).match.pk
    hub = Hub()
    assert hub.join(match_id, players[1].pk)
    start = hub.version(match_id, 0, None, fresh=True)
    announced.clear()
    with broadcast.batched():
        services.play_due_turn(match_id, now=LATER)
        assert [message["seq"] for message in announced] == [start.seq + 1]
        services.play_due_turn(match_id, now=LATER)
    first, second = announced
    bases = [steps.opened(message["next"])["base"] for message in (first, second)]
    assert bases == [start.seq, start.seq + 1]
    assert hub.advance(match_id, first["seq"], first["rev"], first["next"])
    assert hub.advance(match_id, second["seq"], second["rev"], second["next"])
    assert hub.known(match_id, second["seq"], None).state == read_match(match_id).state


def test_the_in_memory_layer_carries_no_step(players, monkeypatch, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "_send", sent.extend)
    match_id = started_match(players).match.pk
    services.play_due_turn(match_id, now=LATER - timedelta(days=1))
    assert sent
    assert all("next" not in message for message in sent)
