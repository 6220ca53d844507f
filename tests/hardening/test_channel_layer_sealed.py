"""The channel layer on Redis: required to be encrypted in production, and deaf to forgeries.

With Redis and DEBUG off the settings refuse to load without a channel key;
the layer encrypts every message and drops those it cannot read; the
worker's wake-up channel is named per database index and ignores anything
but a time.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.layers import ChannelLayerManager
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from baloot_site import environment
from games.match.broadcast import event_message, match_group
from games.worker import alarm
from tests.support.services import redis_url

ROOT = Path(__file__).resolve().parents[2]
KEY = "a-channel-key-of-thirty-two-chars!"


def test_with_redis_and_debug_off_the_settings_need_a_channel_key():
    production = {"REDIS_URL": "redis://cache.internal:6379/1"}
    with pytest.raises(ImproperlyConfigured, match="CHANNEL_ENCRYPTION_KEY is not set"):
        environment.require_channel_encryption(production, debug=False)
    with pytest.raises(ImproperlyConfigured, match="at least 32"):
        environment.require_channel_encryption(
            {**production, "CHANNEL_ENCRYPTION_KEY": "short"}, debug=False
        )
    with pytest.raises(ImproperlyConfigured, match="Key 2 of CHANNEL_ENCRYPTION_KEY"):
        environment.require_channel_encryption(
            {**production, "CHANNEL_ENCRYPTION_KEY": f"{KEY},old"}, debug=False
        )
    environment.require_channel_encryption({**production, "CHANNEL_ENCRYPTION_KEY": KEY}, False)
    environment.require_channel_encryption(production, debug=True)
    environment.require_channel_encryption({}, debug=False)
    config = environment.channel_layers({**production, "CHANNEL_ENCRYPTION_KEY": f"{KEY}, {KEY}2"})
    assert config["default"]["CONFIG"]["symmetric_encryption_keys"] == [KEY, f"{KEY}2"]


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter with only ``env`` of the site's variables."""
    names = ("DJANGO_DEBUG", "REDIS_URL", "CHANNEL_ENCRYPTION_KEY", "DATABASE_URL")
    clean = {k: v for k, v in os.environ.items() if k not in names}
    clean.update(env, DJANGO_SETTINGS_MODULE="baloot_site.settings", DJANGO_SECRET_KEY="k" * 50)
    code = (
        "from django.conf import settings; "
        "print(sorted(settings.CHANNEL_LAYERS['default']['CONFIG']))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_the_settings_refuse_to_load_on_redis_without_a_channel_key():
    refused = load_settings(REDIS_URL="redis://cache.internal:6379/1")
    assert refused.returncode != 0
    assert "CHANNEL_ENCRYPTION_KEY is not set" in refused.stderr
    loaded = load_settings(REDIS_URL="redis://cache.internal:6379/1", CHANNEL_ENCRYPTION_KEY=KEY)
    assert loaded.returncode == 0, loaded.stderr
    assert "symmetric_encryption_keys" in loaded.stdout
    assert (
        load_settings(REDIS_URL="redis://cache.internal:6379/1", DJANGO_DEBUG="1").returncode == 0
    )


def sealed_layer() -> Any:
    return ChannelLayerManager()["default"]


@pytest.mark.redis
@pytest.mark.asyncio
async def test_the_layer_encrypts_every_message_and_drops_what_it_cannot_read(settings):
    import redis.asyncio as aioredis

    url = redis_url()
    settings.CHANNEL_LAYERS = environment.channel_layers(
        {"REDIS_URL": url, "CHANNEL_ENCRYPTION_KEY": KEY}
    )
    layer = sealed_layer()
    assert type(layer).__name__ == "SealedPubSubLayer"
    group = match_group(525252)
    prefix = environment.channel_prefix(url)
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    spy = aioredis.Redis.from_url(url)
    watch = spy.pubsub()
    await watch.psubscribe(f"{prefix}*")
    try:
        await layer.group_send(group, event_message(525252, 9))
        assert await layer.receive(channel) == {"type": "match.event", "match": 525252, "seq": 9}
        raw = await next_published(watch)
        # A client of the Redis server sees a Fernet token, nothing it can read.
        assert raw.startswith(b"gAAAAA")
        assert b"match" not in raw
        assert b"525252" not in raw
        # What anyone else publishes there is dropped, and the socket keeps listening.
        group_channel = f"{prefix}__group__{group}"
        await spy.publish(
            group_channel, b"\x83\xa4type\xabmatch.event\xa5match\xce\x00\x08\x03\xd4"
        )
        await spy.publish(group_channel, raw[:-4] + b"AAAA")
        await layer.group_send(group, event_message(525252, 10))
        assert await asyncio.wait_for(layer.receive(channel), 5) == {
            "type": "match.event",
            "match": 525252,
            "seq": 10,
        }
    finally:
        await watch.aclose()
        await spy.aclose()
        await layer.group_discard(group, channel)
        await layer.flush()


async def next_published(watch: Any) -> bytes:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        message = await watch.get_message(ignore_subscribe_messages=True, timeout=0.5)
        if message is not None:
            return bytes(message["data"])
    raise AssertionError("nothing was published")


def test_the_wake_up_channel_is_named_per_database_index():
    assert alarm.wake_channel("redis://cache.internal:6379/3") == "baloot.3.worker.wake"
    assert alarm.wake_channel("redis://cache.internal:6379") == "baloot.0.worker.wake"


@pytest.mark.redis
def test_the_worker_ignores_a_wake_up_that_names_no_time(settings, caplog):
    import redis

    caplog.set_level(logging.WARNING, logger="games.worker")
    url = redis_url()
    settings.REDIS_URL = url
    woken = alarm.Alarm()
    stop = threading.Event()
    listener = threading.Thread(target=alarm.listen_to_redis, args=(woken, stop), daemon=True)
    listener.start()
    client = redis.Redis.from_url(url)
    try:
        channel = alarm.wake_channel(url)

        def rung_by(*published: bytes) -> bool:
            """Whether publishing ``published`` ends a sleep at once (a past deadline rang)."""
            for data in published:
                client.publish(channel, data)
            started = time.monotonic()
            woken.sleep(None, longest=2)
            return time.monotonic() - started < 1.5

        due = (timezone.now() - timedelta(seconds=1)).isoformat().encode()
        give_up = time.monotonic() + 15
        # The listener subscribes in its own time: until then nothing rings.
        while not rung_by(due):
            assert time.monotonic() < give_up, "the listener never subscribed"
        # Garbage and a time without a zone are ignored; the listener goes on.
        assert rung_by(b"\xff not a time", b"2030-01-01T00:00:00", due)
        assert caplog.text.count("ignored a wake-up") == 2
        assert "retrying" not in caplog.text
    finally:
        stop.set()
        listener.join(timeout=5)
        client.close()
