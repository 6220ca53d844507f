"""What the pictures of one reading share (``MatchReading.shared``): the public
pieces of the table, made once per reading and language, give every seat and
spectator exactly the picture drawn from scratch, and are never carried over to
another reading or language."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from games.bots import choose_action
from games.match import services
from games.match.models import Match, Seat
from games.table import render
from games.table.kept import keeping_disabled
from games.table.live import Picture, draw
from games.table.parts import forget
from games.table.picture import forget_panels
from games.table.render import read_match
from tests.support.drivers import random_readings, started_match


@pytest.fixture(autouse=True)
def _fresh() -> None:
    forget()
    forget_panels()


def same_picture(drawn: Picture, fresh: Picture) -> None:
    assert drawn.parts == fresh.parts
    assert drawn.digests == fresh.digests
    assert drawn.inner == fresh.inner
    assert (drawn.view, drawn.css_class) == (fresh.view, fresh.css_class)


def draw_everyone(
    monkeypatch: pytest.MonkeyPatch, reading: Any, viewers: list[tuple[Any, str]]
) -> int:
    """Each viewer's picture drawn as the live table draws them, one after the other
    (sharing the reading), and afresh with nothing kept or shared; checks they agree."""
    now = timezone.now()
    monkeypatch.setattr(render, "timezone", SimpleNamespace(now=lambda: now))
    drawn = [draw(reading, user, language=language) for user, language in viewers]
    with keeping_disabled():
        fresh = [draw(reading, user, language=language) for user, language in viewers]
    monkeypatch.setattr(render, "timezone", timezone)
    for (_user, language), mine, theirs in zip(viewers, drawn, fresh, strict=True):
        assert mine.language == language
        same_picture(mine, theirs)
    return len(viewers)


@pytest.mark.django_db
def test_every_view_drawn_with_the_shared_pieces_is_drawn_as_from_scratch(
    players, make_user, monkeypatch
):
    outcome = started_match(players)
    # Seats 2 and 3 away, so that their seats show it and the timer plays for them.
    Seat.objects.filter(match=outcome.match, number__in=(2, 3)).update(away=True)
    watcher = make_user("wendy")
    viewers = [(players[n], "en") for n in (1, 2, 3, 4)] + [(watcher, "en")]
    # The same reading seen in a right-to-left language too, by a seat and the watcher.
    viewers += [(players[3], "ar"), (watcher, "ar")]
    compared = 0
    for reading in random_readings(outcome.match.pk, seed=7):
        compared += draw_everyone(monkeypatch, reading, viewers)
    assert reading.match.status == Match.Status.FINISHED
    assert compared > 1000


@pytest.mark.django_db
def test_what_is_shared_stays_with_its_reading_and_language(players, make_user):
    outcome = started_match(players)
    watcher = make_user("wendy")
    first = read_match(outcome.match.pk)
    draw(first, players[1], language="en")
    assert list(first.shared) == ["en"]
    # The same event read again: a reading of its own, nothing shared with the first.
    again = read_match(outcome.match.pk)
    assert again.seq == first.seq
    assert not again.shared
    draw(again, watcher, language="ar")
    assert list(again.shared) == ["ar"]
    assert list(first.shared) == ["en"]
    assert again.shared["ar"] is not first.shared["en"]
    # A move later, the next reading starts with nothing either.
    state = first.state
    action = choose_action(state, state.turn, level="easy")
    services.submit_as_seat(outcome.match.pk, state.turn, action, first.seq)
    later = read_match(outcome.match.pk)
    assert later.seq == first.seq + 1
    assert not later.shared
    # Nothing is shared while keeping is off.
    with keeping_disabled():
        draw(later, players[2], language="en")
    assert not later.shared
