"""With REDIS_URL set, match announcements travel through Redis's pub/sub intact."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit, urlunsplit

import pytest
from channels.layers import ChannelLayerManager

from baloot_site import environment
from games.match.broadcast import event_message, match_group
from tests.support.services import redis_url

pytestmark = pytest.mark.redis


def other_index(url: str) -> str:
    """``url`` with the next Redis database index."""
    parts = urlsplit(url)
    index = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(index + 1) % 16}"))


@pytest.mark.asyncio
async def test_match_events_round_trip_through_the_redis_channel_layer(settings):
    settings.CHANNEL_LAYERS = environment.channel_layers({"REDIS_URL": redis_url()})
    layer = ChannelLayerManager()["default"]
    assert type(layer).__name__ == "SealedPubSubLayer"
    channel = await layer.new_channel()
    group = match_group(424242)
    await layer.group_add(group, channel)
    try:
        await layer.group_send(group, event_message(424242, 17))
        assert await layer.receive(channel) == {"type": "match.event", "match": 424242, "seq": 17}
    finally:
        await layer.group_discard(group, channel)
        await layer.flush()


@pytest.mark.asyncio
async def test_sites_on_two_database_indexes_of_one_redis_do_not_hear_each_other(settings):
    """Redis's pub/sub ignores the database index; the layer's channel names do not."""
    settings.CHANNEL_LAYERS = environment.channel_layers({"REDIS_URL": redis_url()})
    ours = ChannelLayerManager()["default"]
    settings.CHANNEL_LAYERS = environment.channel_layers({"REDIS_URL": other_index(redis_url())})
    theirs = ChannelLayerManager()["default"]
    group = match_group(424243)
    mine, other = await ours.new_channel(), await theirs.new_channel()
    await ours.group_add(group, mine)
    await theirs.group_add(group, other)
    try:
        await theirs.group_send(group, event_message(424243, 3))
        assert await theirs.receive(other) == {"type": "match.event", "match": 424243, "seq": 3}
        await ours.group_send(group, event_message(424243, 5))
        assert await ours.receive(mine) == {"type": "match.event", "match": 424243, "seq": 5}
        # Neither heard the other's announcement, in either order.
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(theirs.receive(other), 0.5)
    finally:
        await ours.flush()
        await theirs.flush()
