"""The rating policy: only play in which the site seats people is rated, and one line-up rarely.

Quick matches and public tables opened as rated (seats drawn at the start)
are rated; private tables and tables whose players chose their seats never
are; the same four are rated once in ``RATED_REPEAT_HOURS`` and any two
players at most ``RATED_PAIR_DAILY_LIMIT`` times in 24 hours. The table, the
match page and the ratings page say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.match import dealing, services
from games.match.models import Match, Seat
from games.ratings.models import RatedMatch
from games.ratings.rebuild import problems
from games.social import queue, rematch
from tests.support.clock import Clock
from tests.support.drivers import Driver, quick_match, seat_everyone
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db

Reason = Match.UnratedReason


def finish(outcome: services.Outcome, seed: int = 1) -> Match:
    return Driver(outcome, seed=seed).finish_match()


def people(prefix: str) -> dict[int, User]:
    return {n: create_player(f"{prefix}{n}") for n in (1, 2, 3, 4)}


def rated(match: Match) -> bool:
    return RatedMatch.objects.filter(match=match).exists()


def test_private_tables_and_chosen_seats_are_never_rated(players: dict[int, User]):
    private = finish(services.start_match(players[1], seat_everyone(players, is_private=True)))
    chosen = finish(services.start_match(players[1], seat_everyone(players, mode="quick")), 2)
    for match, reason in ((private, Reason.PRIVATE), (chosen, Reason.CHOSEN_SEATS)):
        assert match.status == Match.Status.FINISHED
        assert not rated(match)
        assert (match.unrated, match.unrated_reason) == (True, reason)
    page = client_for(players[1]).get(f"/match/{private.pk}/").content.decode()
    assert "Unrated: private table" in page
    detail = client_for(players[2]).get(f"/matches/{chosen.pk}/").content.decode()
    assert "Unrated: seats chosen by the players" in detail
    assert 'href="/ratings/#rated-matches"' in detail
    assert problems() == []


def test_a_quick_match_of_four_strangers_is_rated_and_says_so(players: dict[int, User]):
    outcome = quick_match(players, mode="quick")
    assert not outcome.match.unrated
    page = client_for(players[3]).get(f"/match/{outcome.match.pk}/").content.decode()
    assert '<span class="rating-label">Rated</span>' in page
    assert rated(finish(outcome))
    assert problems() == []


def reversed_draw(monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    """Make the site's draw of seats put people in reverse order; the draws it made."""
    draws: list[list[Any]] = []

    def draw(people: Sequence[Any]) -> list[Any]:
        draws.append(list(people))
        return list(reversed(people))

    monkeypatch.setattr(dealing, "draw_seats", draw)
    return draws


def test_a_rated_table_of_the_lobby_draws_its_seats_at_the_start(
    players: dict[int, User], monkeypatch: pytest.MonkeyPatch
):
    browser = client_for(players[1])
    opened = browser.post("/lobby/new/", {"mode": "quick", "play_timer": "15", "rated": "on"})
    table = Match.objects.get()
    assert opened["Location"] == f"/match/{table.pk}/"
    assert table.seats_assigned
    waiting = browser.get(f"/match/{table.pk}/").content.decode()
    assert "Rated: the seats are drawn at the start" in waiting
    for number in (2, 3, 4):
        services.take_seat(players[number], table, number)
    draws = reversed_draw(monkeypatch)
    outcome = services.start_match(players[1], table)
    assert draws == [[players[1], players[2], players[3], players[4]]]
    seated = {s.number: s.user for s in Seat.objects.filter(match=table)}
    assert seated == {1: players[4], 2: players[3], 3: players[2], 4: players[1]}
    # The outcome the pushes are drawn from has the drawn seats too.
    assert outcome.seats is not None
    assert {n: s.user for n, s in outcome.seats.items()} == seated
    assert not outcome.match.unrated
    assert rated(finish(outcome))
    assert problems() == []


def test_a_table_opened_without_rated_or_private_has_no_drawn_seats(players: dict[int, User]):
    browser = client_for(players[1])
    browser.post("/lobby/new/", {"mode": "quick", "play_timer": "15"})
    both = {"mode": "quick", "play_timer": "15", "rated": "on", "is_private": "on"}
    browser.post("/lobby/new/", both)
    assert list(Match.objects.order_by("pk").values_list("seats_assigned", "is_private")) == [
        (False, False),
        (False, True),
    ]


def test_quick_match_draws_the_seats_rather_than_the_order_of_joining(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    crowd = [create_player(f"j{n}") for n in range(4)]
    draws = reversed_draw(monkeypatch)
    for person in crowd:
        queue.page_opened(person, f"page-{person.pk}")
        queue.join(person, mode="classic", play_timer=15)
    match = Match.objects.get()
    assert draws == [crowd]
    seated = {s.number: s.user for s in Seat.objects.filter(match=match)}
    assert seated == {1: crowd[3], 2: crowd[2], 3: crowd[1], 4: crowd[0]}
    assert match.seats_assigned
    assert not match.unrated


def play_rated(four: dict[int, User], seed: int = 1) -> Match:
    return finish(quick_match(four, mode="quick"), seed)


def test_the_same_four_are_rated_once_in_the_window(clock: Clock, settings, players):
    settings.RATED_REPEAT_HOURS = 12
    first = play_rated(players)
    again = play_rated({1: players[2], 2: players[1], 3: players[4], 4: players[3]}, 2)
    assert rated(first)
    assert not rated(again)
    assert again.unrated_reason == Reason.SAME_FOUR
    clock.advance(12 * 3600 - 1)
    assert quick_match(players).match.unrated_reason == Reason.SAME_FOUR
    Match.objects.filter(status=Match.Status.PLAYING).update(status=Match.Status.ABORTED)
    clock.advance(2)
    later = play_rated(players, 3)
    assert rated(later)
    assert problems() == []


def test_a_rematch_is_not_rated(clock: Clock, players: dict[int, User]):
    finished = play_rated(players)
    for number in (1, 2, 3, 4):
        offer = rematch.accept(players[number], finished.pk)
    new = offer.new_match
    assert new is not None
    assert new.seats_assigned
    assert (new.unrated, new.unrated_reason) == (True, Reason.SAME_FOUR)
    page = client_for(players[1]).get(f"/match/{new.pk}/").content.decode()
    assert "Unrated: the same four played a rated match shortly before" in page


def test_two_players_meet_in_few_rated_matches_a_day(clock: Clock, settings, players):
    settings.RATED_PAIR_DAILY_LIMIT = 2
    # Seats 1 and 2 play together at three tables of different fours.
    tables = [players, {**people("b"), 1: players[1], 2: players[2]}]
    for seed, four in enumerate(tables, 1):
        assert rated(play_rated(four, seed))
    third = quick_match({**people("c"), 1: players[1], 3: players[2]}).match
    assert third.unrated_reason == Reason.DAILY_LIMIT
    # Others at that table are not held back anywhere else.
    others = {**people("d"), 1: players[3], 2: players[4]}
    assert not quick_match(others).match.unrated
    Match.objects.filter(status=Match.Status.PLAYING).update(status=Match.Status.ABORTED)
    clock.advance(24 * 3600 + 1)
    assert not quick_match({**people("e"), 1: players[1], 2: players[2]}).match.unrated


def test_tables_with_bots_are_unrated_from_the_start(players: dict[int, User]):
    bots = services.play_with_bots(players[1]).match
    assert (bots.unrated, bots.unrated_reason) == (True, Reason.BOTS)
    page = client_for(players[1]).get(f"/match/{bots.pk}/").content.decode()
    assert "Unrated: a bot in a seat" in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Quick matches", "12 hours", "at most 5 rated matches in 24 hours")),
        ("ar", ("12", "5")),
    ],
)
def test_the_ratings_page_states_the_policy(language: str, words: tuple[str, ...]):
    body = client_for(None, language).get("/ratings/").content.decode()
    assert 'id="rated-matches"' in body
    for word in words:
        assert word in body
    if language != "en":
        assert "Quick matches" not in body
        assert "Public tables opened as rated" not in body


def test_the_lobby_offers_a_rated_table(players: dict[int, User]):
    body = client_for(players[1]).get("/lobby/").content.decode()
    assert 'name="rated"' in body
    assert "The seats are drawn when the match starts" in body
