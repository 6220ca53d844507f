"""A live socket stays in its match's group past the group expiry; a dead one drops out.

The channel layer forgets a group member ``group_expiry`` seconds after it
joined, so the channels of a process killed without leaving stop receiving
announcements. Each live consumer joins again every ``CHANNEL_GROUP_RENEWAL``
seconds, so it keeps hearing its match; a process renews all its sockets'
memberships together (``games.table.memberships``).
"""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from baloot_site import environment
from games.match import services
from games.match.broadcast import event_message, match_group
from tests.support.drivers import seat_everyone
from tests.support.services import redis_url
from tests.table.live import close_all, seq_of, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

EXPIRY = 2


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
async def test_one_round_trip_renews_every_socket_of_a_process_on_redis(
    started, players, settings, monkeypatch
):
    """On Redis, the process renews all its sockets' memberships at once, not socket by
    socket: no ``group_add`` per socket once connected, yet every membership stays fresh."""
    settings.CHANNEL_LAYERS = environment.channel_layers(
        {"REDIS_URL": redis_url(), "CHANNEL_GROUP_EXPIRY": "3"}
    )
    settings.CHANNEL_GROUP_RENEWAL = 0.5
    pk = started.match.pk
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisChannelLayer"
    sockets = [await socket_for(pk, players[n]) for n in (1, 2, 3)]
    try:
        for socket in sockets:
            connected, _ = await socket.connect()
            assert connected
            assert seq_of(await socket.receive_from(timeout=15)) == started.seq
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
