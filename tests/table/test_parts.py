"""Each part of the table, drawn from only the values it reads and kept once drawn
(``games.table.parts``), is exactly the partial rendered from the whole region's context.

A part whose ``reads`` forgot a value the partial uses would draw without it,
and a kept part (or a kept result panel or score sheet) whose values were
compared too coarsely would go stale.
Whole matches are played here with random legal actions and, at every event,
each seat's and a spectator's picture is drawn as the live table draws it
(parts kept across events and viewers) and compared with every partial
rendered afresh from the whole context, in a left-to-right and a
right-to-left language, through the template engine as a page renders it
(the live table draws its parts with numbers left unlocalized).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import get_template
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from hypothesis import example, given
from hypothesis import strategies as st

from games.match import services
from games.match.models import Seat
from games.match.versions import read as read_match
from games.table import context as table_contexts
from games.table.context import TEMPLATE, table_context, viewer_of
from games.table.live import CSRF_MARK, Picture, draw
from games.table.parts import KEEP_PIECES, _key, cut, forget, parts_of
from games.table.picture import forget_panels
from tests.support.drivers import random_readings, seat_everyone, started_match


@pytest.fixture(autouse=True)
def _fresh() -> None:
    forget()
    forget_panels()


def reference_parts(reading: Any, user: Any, language: str) -> dict[str, str]:
    """Every part of ``user``'s region, each partial rendered afresh from the whole context
    (its result panel and score sheet made afresh too)."""
    forget_panels()
    # Nothing shared with the pictures drawn before, nothing kept: made from scratch.
    with translation.override(language):
        context = table_context(reading, viewer_of(reading, user, language=language))
        context["csrf_field"] = mark_safe(CSRF_MARK)
        context[KEEP_PIECES] = False
        parts = {}
        for part in parts_of(context):
            whole = dict(context)
            if part.position:
                whole["seat"] = context["t"].seats[part.position]
            # Through the template engine as any page renders, numbers localized.
            made = cut(get_template(f"{TEMPLATE}#{part.partial}").render(whole))
            parts[made.name] = made.html
        return parts


def both_ways(monkeypatch: pytest.MonkeyPatch, reading: Any, user: Any, language: str) -> Picture:
    """``user``'s picture drawn as the live table does and afresh, at one moment; checks them."""
    now = timezone.now()
    # The same moment for both, so that the countdowns agree.
    monkeypatch.setattr(table_contexts, "timezone", SimpleNamespace(now=lambda: now))
    kept = draw(reading, viewer_of(reading, user, language=language), shared={})
    fresh = reference_parts(reading, user, language)
    monkeypatch.setattr(table_contexts, "timezone", timezone)
    for name, html in fresh.items():
        assert kept.parts.get(name) == html, f"event {reading.seq}, {user}, {language}: {name}"
    assert kept.parts.keys() == fresh.keys()
    return kept


def play_to_the_end(
    monkeypatch: pytest.MonkeyPatch,
    match_id: int,
    viewers: list[tuple[Any, str]],
    events: int | None = None,
    seed: int = 11,
) -> int:
    """Play the match with random legal actions (``events`` of them at most), comparing
    the pictures at each event; returns how many were compared."""
    compared = 0
    for reading in random_readings(match_id, seed, events):
        for user, language in viewers:
            both_ways(monkeypatch, reading, user, language)
            compared += 1
    return compared


@pytest.mark.django_db
def test_every_part_of_every_view_matches_its_partial_through_a_whole_match(
    players, make_user, monkeypatch
):
    outcome = started_match(players)
    watcher = make_user("wendy")
    viewers = [(players[n], "en") for n in (1, 2, 3, 4)] + [(watcher, "en")]
    compared = play_to_the_end(monkeypatch, outcome.match.pk, viewers)
    assert compared > 500


@pytest.mark.django_db
def test_parts_are_kept_per_language(players, make_user, monkeypatch):
    outcome = started_match(players)
    watcher = make_user("wendy")
    # Drawn in English first: those parts must not show in Arabic, nor the reverse.
    viewers = [(players[n], language) for n in (1, 2, 3, 4) for language in ("en", "ar")]
    viewers += [(watcher, "ar"), (watcher, "en")]
    play_to_the_end(monkeypatch, outcome.match.pk, viewers, events=120, seed=5)


@pytest.mark.django_db
def test_parts_follow_seats_that_step_away_and_a_running_clock(players, make_user, monkeypatch):
    outcome = started_match(players)
    watcher = make_user("wendy")
    Seat.objects.filter(match=outcome.match, number__in=(2, 3)).update(away=True)
    later = timezone.now() + timezone.timedelta(days=1)
    match_id = outcome.match.pk
    for _ in range(60):
        reading = read_match(match_id)
        for user in (players[1], players[2], watcher):
            both_ways(monkeypatch, reading, user, "ar")
        if services.play_due_turn(match_id, now=later) is None:
            break


@pytest.mark.django_db
def test_the_waiting_room_matches_its_partial(players, make_user, monkeypatch):
    match = seat_everyone(players)
    reading = read_match(match.pk)
    for user in (players[1], players[3], make_user("wendy")):
        picture = both_ways(monkeypatch, reading, user, "en")
        assert list(picture.parts) == ["t-waiting"]


_atoms = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "b", "t"]))
_contexts = st.dictionaries(
    st.sampled_from(["t", "seat", "urls", "a"]),
    st.one_of(
        _atoms, st.dictionaries(st.sampled_from(["a", "b", "t", "seat"]), _atoms, max_size=3)
    ),
    max_size=3,
)


@given(_contexts, _contexts)
# A dict's names and values could be read as the names and values after it.
@example({"t": {"a": "b"}}, {"t": {}, "a": "b"})
def test_a_parts_key_is_the_same_only_for_the_same_values(one: Any, other: Any) -> None:
    # Parts are kept by one flat tuple of their values (names, then values, of
    # each dict): two different contexts never share a kept part.
    same_key = _key("seat", "en", one) == _key("seat", "en", other)
    assert same_key == (_in_order(one) == _in_order(other))


def _in_order(context: dict[str, Any]) -> list[tuple[str, Any]]:
    """``context``'s names and values in order, a dict's among them too (a key keeps order)."""
    return [
        (name, list(value.items()) if type(value) is dict else value)
        for name, value in context.items()
    ]
