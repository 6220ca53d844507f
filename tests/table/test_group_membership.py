"""A live socket keeps hearing its match for as long as it lives, on every layer.

The in-memory layer (and channels_redis's core layer) forgets a group
member ``group_expiry`` seconds after it joined, so the channels of a
process killed without leaving stop receiving announcements. Each live
consumer joins again every ``CHANNEL_GROUP_RENEWAL`` seconds, so it keeps
hearing its match; a process renews all its sockets' memberships together
(``games.match.memberships``). On the pub/sub layer production uses, a
membership is the process's subscription: nothing to renew, and it outlives
a dropped Redis connection.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from redis import asyncio as aioredis

from baloot_site import environment
from games.match import memberships, services
from games.match.broadcast import event_message, match_group
from tests.support.drivers import seat_everyone
from tests.support.services import redis_url
from tests.table.live import close_all, seq_of, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

EXPIRY = 2


async def connect_all(sockets: list[Any], seq: int) -> None:
    """Connect each socket and take its first picture, which must show event ``seq``."""
    for socket in sockets:
        connected, _ = await socket.connect()
        assert connected
        assert seq_of(await socket.receive_from(timeout=15)) == seq


@pytest.fixture(autouse=True)
def _short_expiry(settings):
    """Memberships last two seconds unless renewed; consumers renew twice a second."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"group_expiry": EXPIRY},
        }
    }
    settings.CHANNEL_GROUP_RENEWAL = 0.5


@pytest.fixture
def started(players):
    return services.start_match(players[1], seat_everyone(players))


async def test_a_live_socket_keeps_hearing_its_match_past_the_expiry(started, players):
    pk = started.match.pk
    socket = await socket_for(pk, players[1])
    layer = get_channel_layer()
    # A channel of a process that died: it joined once and never again.
    dead = await layer.new_channel()
    await layer.group_add(match_group(pk), dead)
    try:
        connected, _ = await socket.connect()
        assert connected
        assert seq_of(await socket.receive_from(timeout=15)) == started.seq
        await asyncio.sleep(EXPIRY + 1.5)

        state = started.state
        seat = state.turn
        moved = await database_sync_to_async(services.submit)(
            players[seat], pk, {"seat": seat, "bid": "pass"}, started.seq
        )
        assert seq_of(await socket.receive_from(timeout=15)) == moved.seq
        # The dead channel's membership lapsed: the announcement skipped it.
        assert dead not in layer.groups.get(match_group(pk), {})
    finally:
        await close_all([socket])


async def test_a_clock_announcement_refreshes_the_same_event(started, players):
    pk = started.match.pk
    socket = await socket_for(pk, players[2])
    try:
        connected, _ = await socket.connect()
        assert connected
        assert seq_of(await socket.receive_from(timeout=15)) == started.seq
        layer = get_channel_layer()
        await layer.group_send(match_group(pk), event_message(pk, started.seq))
        assert await socket.receive_nothing(timeout=0.5)
        await layer.group_send(match_group(pk), event_message(pk, started.seq, clock=True))
        assert seq_of(await socket.receive_from(timeout=15)) == started.seq
    finally:
        await close_all([socket])


@pytest.mark.redis
async def test_one_round_trip_renews_every_socket_of_a_process_on_the_core_redis_layer(
    started, players, settings, monkeypatch
):
    """On channels_redis's core layer (settings may still choose it), the process renews
    all its sockets' memberships at once, not socket by socket: no ``group_add`` per
    socket once connected, yet every membership stays fresh."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url()], "group_expiry": 3},
        }
    }
    settings.CHANNEL_GROUP_RENEWAL = 0.5
    pk = started.match.pk
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisChannelLayer"
    assert memberships.lapses(layer)
    sockets = [await socket_for(pk, players[n]) for n in (1, 2, 3)]
    try:
        await connect_all(sockets, started.seq)
        joined_one_by_one: list[str] = []
        group_add = layer.group_add

        async def counted(group: str, channel: str) -> None:
            joined_one_by_one.append(group)
            await group_add(group, channel)

        monkeypatch.setattr(layer, "group_add", counted)
        renewed_after = time.time()
        # Past the expiry: only renewals keep the sockets in their groups.
        await asyncio.sleep(3.5)
        key = layer._group_key(match_group(pk))
        members = await layer.connection(layer.consistent_hash(match_group(pk))).zrange(
            key, 0, -1, withscores=True
        )
        assert len(members) == 3
        assert all(joined >= renewed_after + 2.5 for _channel, joined in members)
        assert joined_one_by_one == []

        seat = started.state.turn
        moved = await database_sync_to_async(services.submit)(
            players[seat], pk, {"seat": seat, "bid": "pass"}, started.seq
        )
        for socket in sockets:
            assert seq_of(await socket.receive_from(timeout=15)) == moved.seq
    finally:
        await close_all(sockets)
        await layer.flush()


def pubsub_layer(settings: Any) -> Any:
    settings.CHANNEL_LAYERS = environment.channel_layers({"REDIS_URL": redis_url()})
    layer = get_channel_layer()
    assert type(layer).__name__ == "SealedPubSubLayer"
    return layer


async def subscribers(layer: Any, group: str) -> int:
    """How many connections Redis has subscribed to ``group`` (one per process)."""
    name = layer._get_layer()._get_group_channel_name(group)
    client = aioredis.Redis.from_url(redis_url())
    try:
        [(_name, count)] = await client.pubsub_numsub(name)
        return int(count)
    finally:
        await client.aclose()


async def wait_for(
    condition: Callable[[], Awaitable[bool]], what: str, timeout: float = 15
) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        await asyncio.sleep(0.05)


@pytest.mark.redis
async def test_on_the_pub_sub_layer_a_process_subscribes_once_and_renews_nothing(
    started, players, settings
):
    settings.CHANNEL_GROUP_RENEWAL = 0.2
    layer = pubsub_layer(settings)
    assert not memberships.lapses(layer)
    pk = started.match.pk
    sockets = [await socket_for(pk, players[n]) for n in (1, 2, 3)]
    try:
        await connect_all(sockets, started.seq)
        # Three sockets, one subscription of this process to their match.
        assert await subscribers(layer, match_group(pk)) == 1
        await asyncio.sleep(1)
        assert memberships.renewals() == 0

        seat = started.state.turn
        moved = await database_sync_to_async(services.submit)(
            players[seat], pk, {"seat": seat, "bid": "pass"}, started.seq
        )
        for socket in sockets:
            assert seq_of(await socket.receive_from(timeout=15)) == moved.seq
        await close_all(sockets[:2])
        assert await subscribers(layer, match_group(pk)) == 1
        await close_all(sockets[2:])

        # The last socket out ends the subscription.
        async def unsubscribed() -> bool:
            return await subscribers(layer, match_group(pk)) == 0

        await wait_for(unsubscribed, "the subscription to end")
    finally:
        await close_all(sockets)
        await layer.flush()


@pytest.mark.redis
async def test_a_socket_keeps_hearing_its_match_after_its_redis_connection_drops(
    started, players, settings
):
    """Redis closes the process's subscribed connection (as a restart or a network cut
    would): redis-py connects again and subscribes to every group again, and the next
    announcement reaches the socket, which never noticed."""
    layer = pubsub_layer(settings)
    pk = started.match.pk
    socket = await socket_for(pk, players[1])
    try:
        connected, _ = await socket.connect()
        assert connected
        assert seq_of(await socket.receive_from(timeout=15)) == started.seq
        [shard] = layer._get_layer()._shards
        subscribed = shard._pubsub.connection
        host, port = subscribed._writer.get_extra_info("sockname")[:2]
        client = aioredis.Redis.from_url(redis_url())
        try:
            # Only this connection: other processes may be using the same server.
            assert await client.client_kill(f"{host}:{port}")
        finally:
            await client.aclose()

        async def subscribed_again() -> bool:
            writer = subscribed._writer
            return (
                writer is not None
                and writer.get_extra_info("sockname")[1] != port
                and await subscribers(layer, match_group(pk)) == 1
            )

        await wait_for(subscribed_again, "the layer to subscribe again")

        seat = started.state.turn
        moved = await database_sync_to_async(services.submit)(
            players[seat], pk, {"seat": seat, "bid": "pass"}, started.seq
        )
        assert seq_of(await socket.receive_from(timeout=15)) == moved.seq
    finally:
        await close_all([socket])
        await layer.flush()
