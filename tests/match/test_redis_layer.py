"""With REDIS_URL set, match announcements travel through Redis intact."""

from __future__ import annotations

import pytest
from channels.layers import ChannelLayerManager

from baloot_site import environment
from games.match.broadcast import event_message, match_group
from tests.support.services import redis_url

pytestmark = pytest.mark.redis


@pytest.mark.asyncio
async def test_match_events_round_trip_through_the_redis_channel_layer(settings):
    settings.CHANNEL_LAYERS = environment.channel_layers({"REDIS_URL": redis_url()})
    layer = ChannelLayerManager()["default"]
    assert type(layer).__name__ == "RedisChannelLayer"
    channel = await layer.new_channel()
    group = match_group(424242)
    await layer.group_add(group, channel)
    try:
        await layer.group_send(group, event_message(424242, 17))
        assert await layer.receive(channel) == {"type": "match.event", "match": 424242, "seq": 17}
    finally:
        await layer.group_discard(group, channel)
        await layer.flush()
