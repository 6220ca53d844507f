"""``/health/``: 200 when the database, the channel layer and a worker answer, else 503.

The answer is JSON naming each check and whether it passed, and nothing
else: no versions, addresses or error texts for a stranger to read.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from health.beats import worker_alive

logger = logging.getLogger(__name__)
# How long the channel layer may take to hand a message back.
CHANNEL_TIMEOUT = 3.0


def database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        logger.exception("health: the database does not answer")
        return False


async def _round_trip() -> bool:
    import asyncio

    layer = get_channel_layer()
    if layer is None:
        return False
    channel = await layer.new_channel("health.")
    try:
        token = uuid.uuid4().hex
        await layer.send(channel, {"type": "health.ping", "token": token})
        message = await asyncio.wait_for(layer.receive(channel), CHANNEL_TIMEOUT)
        return bool(message.get("token") == token)
    finally:
        await _release(layer, channel)


async def _release(layer: Any, channel: str) -> None:
    """Stop listening on ``channel``, which no consumer will ever read again.

    On the pub/sub layer a new channel is a subscription of the process, kept
    (and made again after every reconnection) until a ``receive`` on it is
    cancelled, which is how a consumer ends: without this, each check would
    leave one behind for the life of the process. The other layers keep no
    more than a message that expires.
    """
    from channels_redis.pubsub import RedisPubSubChannelLayer

    if not isinstance(layer, RedisPubSubChannelLayer):
        return
    own = layer._get_layer()
    if own.channels.pop(channel, None) is not None:
        await own._get_shard(channel).unsubscribe(channel)


def channel_layer_ok() -> bool:
    try:
        return async_to_sync(_round_trip)()
    except Exception:
        logger.exception("health: the channel layer does not answer")
        return False


def worker_ok() -> bool:
    try:
        return worker_alive()
    except DatabaseError:
        return False


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """The three checks as JSON; status 503 when any fails."""
    checks = {
        "database": database_ok(),
        "channel_layer": channel_layer_ok(),
        "worker": worker_ok(),
    }
    healthy = all(checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "failing", "checks": checks},
        status=200 if healthy else 503,
    )
