"""Quick match and rematch keep the per-player limits: one match at a time, rates, table counts."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.match import services
from games.match.errors import AlreadyPlaying, TooManyTables
from games.match.models import Match, Seat
from games.social import queue, rematch
from games.social.models import QueueEntry
from tests.support.clock import Clock
from tests.support.drivers import start_match
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db


def crowd(count: int, prefix: str = "q") -> list[User]:
    return [create_player(f"{prefix}{n}") for n in range(count)]


def join_all(people: list[User], mode: str = "classic") -> None:
    for person in people:
        queue.page_opened(person, f"page-{person.pk}")
        queue.join(person, mode=mode, play_timer=15)


def limit(settings: Any, **rates: str) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, **rates}


def test_four_accounts_joining_again_and_again_make_one_match(clock: Clock):
    people = crowd(4)
    join_all(people)
    [match] = Match.objects.all()
    for _ in range(5):
        for person in people:
            with pytest.raises(AlreadyPlaying) as refused:
                queue.join(person, mode="quick", play_timer=10)
            assert refused.value.params == {"match": match.pk}
    assert Match.objects.count() == 1
    # Stepping away (a bot plays the seat) is still sitting at the match.
    services.leave_seat(people[0], match)
    with pytest.raises(AlreadyPlaying):
        queue.join(people[0], mode="classic", play_timer=15)
    # Once it is over, the player may look for the next one.
    services.abort_match(match)
    assert queue.join(people[0], mode="classic", play_timer=15).status == "waiting"


def test_the_page_refuses_a_second_match_and_offers_the_way_back(clock: Clock):
    people = crowd(4)
    join_all(people)
    match = Match.objects.get()
    browser = client_for(people[2])
    answer = browser.post("/quick/find/", {"mode": "quick", "play_timer": "10"}, follow=True)
    text = answer.content.decode()
    assert f"You are already playing match {match.pk}." in text
    assert "Back to your match" in text
    assert f'href="/match/{match.pk}/"' in text
    assert 'action="/quick/find/"' not in text
    arabic = client_for(people[2], "ar").get("/quick/").content.decode()
    assert "Back to your match" not in arabic
    assert f'href="/match/{match.pk}/"' in arabic


def test_a_waiting_player_who_starts_a_match_elsewhere_is_not_seated_twice(clock: Clock):
    people = crowd(4)
    join_all(people[:1])
    elsewhere = services.play_with_bots(people[0]).match
    join_all(people[1:])
    assert not Seat.objects.filter(user=people[0]).exclude(match=elsewhere).exists()
    assert not Match.objects.exclude(pk=elsewhere.pk).exists()
    assert queue.status_of(people[1]).waiting == 3


def test_a_player_at_a_running_match_cannot_accept_a_rematch(players: dict[int, User]):
    finished = start_match(players, mode="quick").finish_match()
    elsewhere = services.play_with_bots(players[2]).match
    with pytest.raises(AlreadyPlaying):
        rematch.accept(players[2], finished.pk)
    services.abort_match(elsewhere)
    for number in (1, 2, 3):
        rematch.accept(players[number], finished.pk)
    # Everyone agrees, but one of them has started another match since.
    busy = services.play_with_bots(players[2]).match
    with pytest.raises(rematch.PlayerBusy) as refused:
        rematch.accept(players[4], finished.pk)
    assert "bob is playing another match" in str(refused.value)
    assert Match.objects.count() == 3
    services.abort_match(busy)
    assert rematch.accept(players[4], finished.pk).new_match is not None


def test_the_queue_and_rematch_posts_are_rate_limited(clock: Clock, settings, players):
    limit(settings, QUEUE="3/h", REMATCH="2/h")
    [person] = crowd(1)
    browser = client_for(person)
    game = {"mode": "quick", "play_timer": "10"}
    for _ in range(2):
        assert browser.post("/quick/find/", game).status_code == 302
    assert browser.post("/quick/cancel/").status_code == 302
    for path in ("/quick/find/", "/quick/cancel/", "/quick/bots/"):
        refused = browser.post(path, game)
        assert refused.status_code == 429
        assert "Slow down a little" in refused.content.decode()
    finished = start_match(players, mode="quick").finish_match()
    seated = client_for(players[1])
    url = f"/match/{finished.pk}/rematch/"
    assert [seated.post(url).status_code for _ in range(3)] == [302, 302, 429]
    # Looking at the panel is not counted.
    assert seated.get(url, headers={"HX-Request": "true"}).status_code == 200


def test_quick_match_tables_count_against_the_tables_limit(clock: Clock, settings):
    limit(settings, TABLES="2/h")
    people = crowd(4)
    for _ in range(2):
        join_all(people)
        services.abort_match(Match.objects.get(status=Match.Status.PLAYING))
    assert Match.objects.count() == 2
    for person in people:
        with pytest.raises(TooManyTables):
            queue.join(person, mode="classic", play_timer=15)
    # The lobby counts the same allowance.
    assert client_for(people[0]).post("/lobby/new/", {"mode": "classic"}).status_code == 429
    refused = client_for(people[1]).post(
        "/quick/find/", {"mode": "classic", "play_timer": "15"}, follow=True
    )
    assert "too many tables" in refused.content.decode()


def test_a_table_opened_in_the_lobby_counts_against_quick_match(clock: Clock, settings):
    limit(settings, TABLES="1/h")
    [person] = crowd(1)
    browser = client_for(person)
    opened = browser.post("/lobby/new/", {"mode": "classic", "play_timer": "15", "is_private": ""})
    assert opened.status_code == 302
    with pytest.raises(TooManyTables):
        queue.join(person, mode="classic", play_timer=15)


def test_a_bot_filled_quick_match_counts_against_the_bot_matches_limit(clock: Clock, settings):
    limit(settings, BOT_MATCHES="1/h")
    settings.QUICK_MATCH_BOT_WAIT = 0
    [person] = crowd(1)
    join_all([person])
    services.abort_match(queue.fill_with_bots(person))
    join_all([person])
    with pytest.raises(TooManyTables):
        queue.fill_with_bots(person)
    assert QueueEntry.objects.get(user=person, status="waiting")
    assert client_for(person).post("/lobby/play-now/", {"level": "easy"}).status_code == 429


def test_a_rematch_counts_against_the_tables_limit(settings, players: dict[int, User]):
    limit(settings, TABLES="1/h")
    finished = start_match(players, mode="quick").finish_match()
    for number in (1, 2, 3, 4):
        offer = rematch.accept(players[number], finished.pk)
    assert offer.new_match is not None
    # Each of the four has had the one table of the hour.
    for number in (1, 2, 3, 4):
        browser = client_for(players[number])
        assert browser.post("/lobby/new/", {"mode": "classic"}).status_code == 429
    services.abort_match(offer.new_match)
    others = {n: create_player(f"o{n}") for n in (2, 3, 4)}
    again = start_match({1: players[1], **others}, mode="quick").finish_match()
    with pytest.raises(TooManyTables):
        rematch.accept(players[1], again.pk)
