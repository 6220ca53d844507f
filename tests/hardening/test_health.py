"""``/health/``: the database, the channel layer and a recent worker pass, for monitors."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.layers import get_channel_layer
from django.utils import timezone

from baloot_site import environment
from games.worker import heartbeat
from health import views
from tests.support.services import redis_url

pytestmark = pytest.mark.django_db


def test_healthy_when_a_worker_ran_recently(client):
    heartbeat.beat()
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": True, "channel_layer": True, "worker": True},
    }


def test_failing_when_no_worker_ran_lately(client, settings):
    heartbeat.beat(timezone.now() - timedelta(seconds=settings.HEALTH_WORKER_STALE_SECONDS + 1))
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["checks"] == {"database": True, "channel_layer": True, "worker": False}


def test_failing_when_no_worker_ever_ran(client):
    assert client.get("/health/").status_code == 503


def test_failing_when_the_channel_layer_does_not_answer(client, settings):
    heartbeat.beat()
    # Production's layer, where nothing listens (port 1).
    settings.CHANNEL_LAYERS = environment.channel_layers({"REDIS_URL": "redis://127.0.0.1:1/0"})
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    try:
        response = client.get("/health/")
    finally:
        channel_layers.backends.clear()
    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"] is False


@pytest.mark.redis
@pytest.mark.asyncio
async def test_the_channel_check_leaves_no_subscription_behind(settings):
    """On the pub/sub layer a channel is a subscription of the process until released:
    a monitor asking every few seconds would otherwise pile them up for good."""
    from redis import asyncio as aioredis

    settings.CHANNEL_LAYERS = environment.channel_layers({"REDIS_URL": redis_url()})
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    layer = get_channel_layer()
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
    client = aioredis.Redis.from_url(redis_url())
    try:
        for _ in range(3):
            assert await views._round_trip()
        own = layer._get_layer()
        assert not [name for name in own.channels if "health." in name]
        assert await client.pubsub_channels(f"{prefix}health.*") == []
    finally:
        await client.aclose()
        await layer.flush()
        channel_layers.backends.clear()
