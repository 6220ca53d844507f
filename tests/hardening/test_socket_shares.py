"""One account cannot take the table-socket slots of a server: shares per person, a reserve
for players, and no socket held for good at a long-finished match (issue 27, H1)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.utils import timezone

from baloot_site.asgi import application
from games.match import admission
from games.match.models import Match
from stacks.servers import TEST_REDIS_DB, flush_redis, with_path
from tests.support.drivers import start_with_bots, started_match
from tests.support.players import create_player
from tests.support.services import redis_url
from tests.support.sockets import Socket
from tests.table.live import HOST, ORIGIN, close_all, session_cookie, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    """One process with the in-memory channel layer, whatever REDIS_URL says."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.REDIS_URL = ""


async def opened(socket: WebsocketCommunicator) -> bool:
    """Connect; True when the socket was let in (its table came), False when refused."""
    assert (await socket.connect())[0]
    first = await socket.receive_output(timeout=10)
    if first["type"] == "websocket.close":
        assert first["code"] == 4429
        return False
    return True


def watchable_matches(count: int) -> list[int]:
    """``count`` running public matches, each of one person and three bots."""
    return [
        start_with_bots({1: create_player(f"host{n}")}, (2, 3, 4)).match.pk for n in range(count)
    ]


async def test_one_account_watching_many_matches_never_keeps_a_player_out(players, settings):
    settings.TABLE_SOCKETS_PER_SERVER = 12
    settings.TABLE_SOCKETS_RESERVED_FOR_PLAYERS = 4
    settings.TABLE_WATCHING_SOCKETS_PER_USER = 5
    matches = await database_sync_to_async(watchable_matches)(6)
    own = await database_sync_to_async(started_match)(players)
    watcher = await database_sync_to_async(create_player)("everywhere")
    held: list[WebsocketCommunicator] = []
    refused = 0
    try:
        for match_id in matches:
            for _ in range(settings.TABLE_SOCKETS_PER_USER):
                socket = await socket_for(match_id, watcher)
                if await opened(socket):
                    held.append(socket)
                else:
                    refused += 1
                    await socket.disconnect()
        assert len(held) == settings.TABLE_WATCHING_SOCKETS_PER_USER
        assert refused == 6 * settings.TABLE_SOCKETS_PER_USER - len(held)
        for number in (1, 2, 3, 4):
            socket = await socket_for(own.match.pk, players[number])
            held.append(socket)
            assert await opened(socket), f"the player in seat {number} was refused"
        print(
            f"one account: {len(held) - 4} sockets on {len(matches)} matches, {refused} refused;"
            " all four players of a running match let in"
        )
    finally:
        await close_all(held)


async def test_strangers_fill_only_the_watchers_room_the_players_keep_theirs(players, settings):
    settings.TABLE_SOCKETS_PER_SERVER = 10
    settings.TABLE_SOCKETS_RESERVED_FOR_PLAYERS = 4
    matches = await database_sync_to_async(watchable_matches)(3)
    own = await database_sync_to_async(started_match)(players)
    strangers = [await database_sync_to_async(create_player)(f"stranger{n}") for n in range(4)]
    held: list[WebsocketCommunicator] = []
    try:
        let_in = 0
        for stranger in strangers:
            for match_id in matches:
                socket = await socket_for(match_id, stranger)
                if await opened(socket):
                    held.append(socket)
                    let_in += 1
                else:
                    await socket.disconnect()
        assert let_in == 10 - 4
        for number in (1, 2, 3, 4):
            socket = await socket_for(own.match.pk, players[number])
            held.append(socket)
            assert await opened(socket), f"the player in seat {number} was refused"
        # The process is full now: a fifth player socket would be one too many.
        extra = await socket_for(own.match.pk, players[1])
        assert not await opened(extra)
        await extra.disconnect()
    finally:
        await close_all(held)


async def test_a_finished_match_lets_its_sockets_go_after_a_while(players, settings):
    settings.TABLE_SOCKETS_AFTER_END_SECONDS = 0.5
    finished = await database_sync_to_async(started_match)(players)
    await database_sync_to_async(
        lambda: Match.objects.filter(pk=finished.match.pk).update(
            status=Match.Status.FINISHED, finished_at=timezone.now()
        )
    )()
    socket = await socket_for(finished.match.pk, players[1])
    try:
        assert await opened(socket)
        closing = await socket.receive_output(timeout=5)
        assert closing == {"type": "websocket.close", "code": 4410}
    finally:
        await socket.disconnect()


async def test_a_long_aborted_match_closes_its_socket_after_the_first_picture(players):
    aborted = await database_sync_to_async(started_match)(players)
    await database_sync_to_async(
        lambda: Match.objects.filter(pk=aborted.match.pk).update(
            status=Match.Status.ABORTED, finished_at=timezone.now() - timedelta(days=30)
        )
    )()
    watcher = await database_sync_to_async(create_player)("late")
    socket = await socket_for(aborted.match.pk, watcher)
    try:
        assert await opened(socket)
        closing = await socket.receive_output(timeout=5)
        assert closing == {"type": "websocket.close", "code": 4410}
    finally:
        await socket.disconnect()


async def queue_socket(user: User) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(session_cookie)(user)
    return Socket(application, "/ws/queue/", headers=[HOST, ORIGIN, (b"cookie", cookie)])


async def test_quick_match_pages_are_capped_per_person(settings):
    settings.QUEUE_SOCKETS_PER_USER = 2
    person = await database_sync_to_async(create_player)("many-tabs")
    pages = [await queue_socket(person) for _ in range(3)]
    try:
        for page in pages[:2]:
            assert (await page.connect())[0]
            assert (await page.receive_output(timeout=5))["type"] == "websocket.send"
        assert (await pages[2].connect())[0]
        assert await pages[2].receive_output(timeout=5) == {
            "type": "websocket.close",
            "code": 4429,
        }
        # Closing one page frees its place.
        await pages[0].disconnect()
        again = await queue_socket(person)
        pages.append(again)
        assert (await again.connect())[0]
        assert (await again.receive_output(timeout=5))["type"] == "websocket.send"
    finally:
        await close_all(pages[1:])


async def test_quick_match_pages_count_among_the_process_sockets(players, settings):
    settings.TABLE_SOCKETS_PER_SERVER = 6
    settings.TABLE_SOCKETS_RESERVED_FOR_PLAYERS = 2
    people = [await database_sync_to_async(create_player)(f"seeker{n}") for n in range(2)]
    (match_id,) = await database_sync_to_async(watchable_matches)(1)
    own = await database_sync_to_async(started_match)(players)
    pages = [await queue_socket(person) for person in people for _ in range(2)]
    held = list(pages)
    try:
        for page in pages:
            assert (await page.connect())[0]
            assert (await page.receive_output(timeout=5))["type"] == "websocket.send"
        # Four quick-match pages fill the room of everyone but players.
        watcher = await socket_for(match_id, players[1])
        assert not await opened(watcher)
        await watcher.disconnect()
        for number in (1, 2):
            socket = await socket_for(own.match.pk, players[number])
            held.append(socket)
            assert await opened(socket)
    finally:
        await close_all(held)


@pytest.fixture
def shared_redis(settings):
    """The tests' own Redis index, named by REDIS_URL, empty before and after."""
    url = with_path(redis_url(), str(TEST_REDIS_DB))
    flush_redis(url)
    settings.REDIS_URL = url
    yield url
    flush_redis(url)


@pytest.mark.redis
async def test_a_persons_share_is_counted_across_server_processes(settings, shared_redis):
    settings.TABLE_WATCHING_SOCKETS_PER_USER = 3
    here = admission.RedisShares(shared_redis)
    there = admission.RedisShares(shared_redis)
    kind = admission.Kind.WATCHING
    try:
        assert await here.take(kind, 7) is not None
        kept = await there.take(kind, 7)
        assert kept is not None
        assert await there.take(kind, 7) is not None
        assert await here.take(kind, 7) is None
        # Another person's share is their own.
        assert await here.take(kind, 8) is not None
        await there.give_back(kind, 7, kept)
        assert await here.take(kind, 7) is not None
    finally:
        for shares in (here, there):
            if shares.renewal is not None:
                shares.renewal.cancel()
            await shares.client.aclose()


@pytest.mark.redis
async def test_a_dead_processs_leases_lapse_and_a_live_ones_are_renewed(
    settings, shared_redis, monkeypatch
):
    monkeypatch.setattr(admission, "LEASE_SECONDS", 0.6)
    settings.TABLE_WATCHING_SOCKETS_PER_USER = 2
    alive = admission.RedisShares(shared_redis)
    dead = admission.RedisShares(shared_redis)
    kind = admission.Kind.WATCHING
    try:
        assert await alive.take(kind, 1) is not None
        assert await dead.take(kind, 1) is not None
        assert await alive.take(kind, 1) is None
        # The dead process renews nothing; the live one every third of a lease.
        assert dead.renewal is not None
        dead.renewal.cancel()
        await asyncio.sleep(1.0)
        assert await alive.take(kind, 1) is not None
        assert await dead.take(kind, 1) is None
    finally:
        for shares in (alive, dead):
            if shares.renewal is not None:
                shares.renewal.cancel()
            await shares.client.aclose()


@pytest.mark.redis
async def test_a_socket_is_refused_when_other_processes_hold_the_persons_share(
    settings, shared_redis
):
    settings.TABLE_WATCHING_SOCKETS_PER_USER = 2
    (match_id,) = await database_sync_to_async(watchable_matches)(1)
    watcher = await database_sync_to_async(create_player)("spread-out")
    elsewhere = admission.RedisShares(shared_redis)
    try:
        assert await elsewhere.take(admission.Kind.WATCHING, watcher.pk) is not None
        first = await socket_for(match_id, watcher)
        assert await opened(first)
        second = await socket_for(match_id, watcher)
        assert not await opened(second)
        await second.disconnect()
        await first.disconnect()
        third = await socket_for(match_id, watcher)
        assert await opened(third)
        await third.disconnect()
    finally:
        if elsewhere.renewal is not None:
            elsewhere.renewal.cancel()
        await elsewhere.client.aclose()
