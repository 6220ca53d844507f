"""``/health/``: the database, the channel layer and a recent worker pass, for monitors."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.worker import heartbeat

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
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # Nothing listens on port 1.
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    try:
        response = client.get("/health/")
    finally:
        channel_layers.backends.clear()
    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"] is False
