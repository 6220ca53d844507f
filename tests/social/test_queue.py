"""Quick match in one process: first come, first served, four at a time, never twice."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.match.errors import InvalidSetting, NotAllowed
from games.match.models import Match, Seat
from games.social import queue
from games.social.models import QueueEntry, QueueSocket
from tests.support.clock import Clock
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db


def crowd(count: int, prefix: str = "p") -> list[User]:
    return [create_player(f"{prefix}{n}") for n in range(count)]


def open_page(user: User, name: str | None = None) -> str:
    channel = name or f"page-{user.pk}"
    queue.page_opened(user, channel)
    return channel


def test_six_players_make_one_table_of_the_first_four_and_two_keep_waiting(clock: Clock):
    people = crowd(6)
    for person in people:
        open_page(person)
        clock.advance(1)
        queue.join(person, mode="classic", play_timer=15)
    [match] = Match.objects.all()
    seats = {seat.number: seat.user for seat in Seat.objects.filter(match=match)}
    # First come, first served: the first four, in seats the site draws.
    assert sorted(seats) == [1, 2, 3, 4]
    assert set(seats.values()) == set(people[:4])
    assert match.status == Match.Status.PLAYING
    assert match.unrated is False
    waiting = QueueEntry.objects.filter(status=QueueEntry.Status.WAITING)
    assert [entry.user for entry in waiting] == people[4:]
    assert queue.status_of(people[4]).waiting == 2


def test_only_players_of_the_same_mode_and_timer_meet(clock: Clock):
    people = crowd(4)
    for person, (mode, timer) in zip(
        people, [("classic", 15), ("quick", 15), ("classic", 10), ("classic", 15)], strict=True
    ):
        open_page(person)
        queue.join(person, mode=mode, play_timer=timer)
    assert not Match.objects.exists()
    assert queue.status_of(people[0]).waiting == 2


def test_joining_twice_keeps_one_place_and_another_game_moves_it(clock: Clock):
    [person] = crowd(1)
    first = queue.join(person, mode="classic", play_timer=15)
    clock.advance(5)
    again = queue.join(person, mode="classic", play_timer=15)
    assert again.pk == first.pk
    assert again.joined_at == first.joined_at
    moved = queue.join(person, mode="quick", play_timer=30)
    assert moved.pk != first.pk
    assert QueueEntry.objects.filter(user=person, status="waiting").count() == 1


def test_bad_settings_and_anonymous_players_are_refused(clock: Clock):
    [person] = crowd(1)
    with pytest.raises(InvalidSetting):
        queue.join(person, mode="blitz", play_timer=15)
    with pytest.raises(InvalidSetting):
        queue.join(person, mode="classic", play_timer=11)
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotAllowed):
        queue.join(AnonymousUser(), mode="classic", play_timer=15)


def test_cancelling_leaves_the_queue_and_nobody_is_matched_with_them(clock: Clock):
    people = crowd(4)
    for person in people[:3]:
        open_page(person)
        queue.join(person, mode="classic", play_timer=15)
    queue.cancel(people[0])
    with pytest.raises(queue.NotInQueue):
        queue.cancel(people[0])
    open_page(people[3])
    queue.join(people[3], mode="classic", play_timer=15)
    assert not Match.objects.exists()
    # A reload after cancelling does not bring the player back.
    queue.page_closed(people[0], f"page-{people[0].pk}")
    queue.page_opened(people[0], "another-page")
    assert queue.status_of(people[0]).entry is None


def test_closing_the_last_page_leaves_the_queue_and_a_quick_reload_comes_back(clock: Clock):
    [person] = crowd(1)
    first = open_page(person, "tab-1")
    second = open_page(person, "tab-2")
    queue.join(person, mode="classic", play_timer=15)
    queue.page_closed(person, first)
    assert queue.status_of(person).entry is not None
    queue.page_closed(person, second)
    assert queue.status_of(person).entry is None
    assert QueueEntry.objects.get(user=person).status == QueueEntry.Status.LEFT
    # A reload opens the page again within the grace time: the same place.
    clock.advance(queue.GRACE_SECONDS / 2)
    open_page(person, "tab-3")
    entry = queue.status_of(person).entry
    assert entry is not None
    assert entry.status == QueueEntry.Status.WAITING
    queue.page_closed(person, "tab-3")
    clock.advance(queue.GRACE_SECONDS + 1)
    open_page(person, "tab-4")
    assert queue.status_of(person).entry is None


def test_players_whose_pages_are_gone_are_not_matched(clock: Clock):
    people = crowd(5)
    for person in people[:3]:
        queue.join(person, mode="classic", play_timer=15)
        clock.advance(1)
    # Nobody opened the page: once the grace time is over they are not live.
    clock.advance(queue.GRACE_SECONDS + 1)
    assert queue.sweep() == 3
    for person in people[3:]:
        open_page(person)
        queue.join(person, mode="classic", play_timer=15)
    assert not Match.objects.exists()
    assert queue.status_of(people[4]).waiting == 2


def test_a_page_of_a_dead_server_stops_counting(clock: Clock):
    people = crowd(3)
    for person in people:
        open_page(person)
        queue.join(person, mode="classic", play_timer=30)
    clock.advance(queue.GRACE_SECONDS + 1)
    assert len(queue.live_entries("classic", 30)) == 3
    # Only the last player's page is still refreshed: the others' server died
    # without closing their sockets.
    clock.advance(queue.STALE_SECONDS)
    queue.page_seen(f"page-{people[2].pk}")
    assert [e.user for e in queue.live_entries("classic", 30)] == [people[2]]
    assert queue.sweep() == 2
    assert not QueueSocket.objects.filter(channel_name=f"page-{people[0].pk}").exists()
    assert QueueEntry.objects.get(user=people[0]).status == QueueEntry.Status.LEFT


def test_bots_are_offered_after_the_wait_and_make_an_unrated_match(clock: Clock, settings):
    settings.QUICK_MATCH_BOT_WAIT = 45
    [person] = crowd(1)
    open_page(person)
    queue.join(person, mode="quick", play_timer=10)
    clock.advance(44)
    assert not queue.status_of(person).may_fill_with_bots
    with pytest.raises(queue.TooEarlyForBots):
        queue.fill_with_bots(person)
    clock.advance(1)
    assert queue.status_of(person).may_fill_with_bots
    match = queue.fill_with_bots(person)
    assert match.unrated is True
    assert match.mode == "quick"
    assert match.play_timer == 10
    assert match.status == Match.Status.PLAYING
    seats = {seat.number: seat for seat in Seat.objects.filter(match=match)}
    assert seats[1].user == person
    assert all(seats[n].is_bot for n in (2, 3, 4))
    with pytest.raises(queue.NotInQueue):
        queue.fill_with_bots(person)
    page = client_for(person).get(f"/match/{match.pk}/").content.decode()
    assert "Unrated" in page


def test_the_pages_join_wait_cancel_and_send_a_seated_player_to_the_table(clock: Clock):
    people = crowd(4)
    browsers = [client_for(person) for person in people]
    page = browsers[0].get("/quick/")
    assert page.status_code == 200
    assert "Find a game" in page.content.decode()
    for person in people[:3]:
        open_page(person)
    for browser in browsers[:3]:
        answer = browser.post("/quick/find/", {"mode": "classic", "play_timer": "15"})
        assert answer.status_code == 302
        assert answer["Location"] == "/quick/"
    text = browsers[0].get("/quick/").content.decode()
    assert "data-queue-count>3<" in text
    assert 'ws-connect="/ws/queue/?entry=' in text
    open_page(people[3])
    answer = browsers[3].post("/quick/find/", {"mode": "classic", "play_timer": "15"})
    match = Match.objects.get()
    assert answer["Location"] == f"/match/{match.pk}/"
    assert browsers[0].post("/quick/cancel/").status_code == 302
    assert browsers[0].post("/quick/find/", {"mode": "x"}).status_code == 302
    assert QueueEntry.objects.filter(status="waiting").count() == 0


def test_home_and_lobby_offer_find_a_game(clock: Clock):
    [person] = crowd(1)
    browser = client_for(person)
    for url in ("/", "/lobby/"):
        page = browser.get(url).content.decode()
        assert 'action="/quick/find/"' in page
        assert 'name="mode"' in page
        assert 'name="play_timer"' in page
