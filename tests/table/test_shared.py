"""What the pictures of one version share (``shared``, kept by the hub per version and
language): the public pieces of the table, made once per version and language, give
every seat and spectator exactly the picture drawn from scratch, and are never carried
over to another version or language."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from games.bots import choose_action
from games.match import services
from games.match.models import Match, Seat
from games.match.versions import read as read_match
from games.table import context as table_contexts
from games.table.context import viewer_of
from games.table.live import Hub, Picture, draw
from games.table.parts import forget
from games.table.picture import forget_panels
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
    (sharing the version's pieces), and afresh with nothing kept or shared; checks they agree."""
    now = timezone.now()
    monkeypatch.setattr(table_contexts, "timezone", SimpleNamespace(now=lambda: now))
    shared: dict[str, Any] = {}
    drawn = [
        draw(
            reading,
            viewer_of(reading, user, language=language),
            shared=shared.setdefault(language, {}),
        )
        for user, language in viewers
    ]
    fresh = [
        draw(reading, viewer_of(reading, user, language=language), keep=False)
        for user, language in viewers
    ]
    monkeypatch.setattr(table_contexts, "timezone", timezone)
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
def test_what_is_shared_stays_with_its_version_and_language(players, make_user):
    outcome = started_match(players)
    match_id = outcome.match.pk
    watcher = make_user("wendy")
    hub = Hub()
    assert hub.join(match_id, watcher.pk)
    first = read_match(match_id)
    hub.picture(first, viewer_of(first, players[1], language="en"))
    shared = hub._watched[match_id].shared
    assert list(shared) == ["en"]
    english = shared["en"]
    # The same event read again is the same version: its pieces are those drawn.
    again = read_match(match_id)
    hub.picture(again, viewer_of(again, watcher, language="ar"))
    assert list(shared) == ["en", "ar"]
    assert shared["ar"] is not english
    # A move later, the next version starts with nothing.
    state = first.state
    action = choose_action(state, state.turn, level="easy")
    services.submit_as_seat(match_id, state.turn, action, first.seq)
    later = read_match(match_id)
    assert later.seq == first.seq + 1
    hub.picture(later, viewer_of(later, players[2], language="en"))
    shared = hub._watched[match_id].shared
    assert list(shared) == ["en"]
    assert shared["en"] is not english
    # Nothing is shared when drawn afresh.
    unused: dict[Any, Any] = {}
    draw(later, viewer_of(later, players[3], language="en"), shared=unused, keep=False)
    assert not unused
