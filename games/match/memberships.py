"""The channel-layer groups this process's table sockets belong to, renewed together
where the layer needs it.

Some layers forget a group member ``group_expiry`` seconds after it last
joined, which is how the channels of a killed process leave their groups: the
in-memory layer, and channels_redis's core layer when settings choose it. A
live socket must join again before then. Each socket used to renew its own
groups on a timer of its own: with hundreds of sockets per process that was
one Redis round trip per socket and group every period, a fifth of a busy
server's CPU. Here one timer per process (per event loop) renews every
membership the process holds each ``CHANNEL_GROUP_RENEWAL`` seconds, and on
the core Redis layer does it in one pipeline per Redis server: a few
commands per group, one round trip in all.

On the pub/sub layer that production uses (``baloot_site.environment``) a
membership is the process's subscription to the group, which lasts as long
as its Redis connection and is made again by redis-py when that connection
comes back: nothing lapses, so nothing is renewed, and a killed process's
subscriptions end with its connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)


@dataclass
class _LoopMemberships:
    """The memberships held by the sockets of one event loop, and their renewal timer."""

    layer: Any
    # Group -> the channels in it, each held by how many joins.
    held: dict[str, dict[str, int]] = field(default_factory=dict)
    timer: asyncio.Task[None] | None = None
    renewals: int = 0


_by_loop: dict[asyncio.AbstractEventLoop, _LoopMemberships] = {}


async def join(layer: Any, channel: str, groups: Iterable[str]) -> None:
    """Put ``channel`` in each of ``groups`` now and keep it there until ``leave``."""
    groups = list(groups)
    if not lapses(layer):
        for group in groups:
            await layer.group_add(group, channel)
        return
    await _add(layer, {group: [channel] for group in groups})
    loop = asyncio.get_running_loop()
    memberships = _by_loop.get(loop)
    if memberships is None or memberships.layer is not layer:
        memberships = _by_loop[loop] = _LoopMemberships(layer)
    for group in groups:
        channels = memberships.held.setdefault(group, {})
        channels[channel] = channels.get(channel, 0) + 1
    if memberships.timer is None or memberships.timer.done():
        memberships.timer = loop.create_task(_renew_forever(memberships))


async def leave(layer: Any, channel: str, groups: Iterable[str]) -> None:
    """Take ``channel`` out of each of ``groups``; the last one out stops the timer."""
    if not lapses(layer):
        for group in groups:
            await layer.group_discard(group, channel)
        return
    loop = asyncio.get_running_loop()
    memberships = _by_loop.get(loop)
    for group in groups:
        if memberships is not None:
            channels = memberships.held.get(group, {})
            if channels.get(channel, 0) > 1:
                channels[channel] -= 1
            else:
                channels.pop(channel, None)
                if not channels:
                    memberships.held.pop(group, None)
        await layer.group_discard(group, channel)
    if memberships is not None and not memberships.held:
        _by_loop.pop(loop, None)
        if memberships.timer is not None:
            memberships.timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await memberships.timer


def lapses(layer: Any) -> bool:
    """Whether ``layer`` forgets a group member that does not join again in time."""
    if _is_pubsub(layer):
        return False
    return getattr(layer, "group_expiry", None) is not None


def renewals() -> int:
    """How many times this event loop's memberships were renewed (all at once each time)."""
    memberships = _by_loop.get(asyncio.get_running_loop())
    return memberships.renewals if memberships is not None else 0


async def _renew_forever(memberships: _LoopMemberships) -> None:
    while True:
        await asyncio.sleep(settings.CHANNEL_GROUP_RENEWAL)
        held = {group: list(channels) for group, channels in memberships.held.items()}
        try:
            await _add(memberships.layer, held)
        except Exception:  # each layer backend fails its own way
            logger.warning("could not renew %s group memberships", len(held))
        memberships.renewals += 1


async def _add(layer: Any, members: dict[str, list[str]]) -> None:
    """Add each group's channels to it: one pipeline per Redis server, else one call each."""
    if not members:
        return
    if _is_core_redis(layer):
        await _add_on_redis(layer, members)
        return
    for group, channels in members.items():
        for channel in channels:
            await layer.group_add(group, channel)


def _is_core_redis(layer: Any) -> bool:
    try:
        from channels_redis.core import RedisChannelLayer
    except ImportError:
        return False
    return isinstance(layer, RedisChannelLayer)


def _is_pubsub(layer: Any) -> bool:
    try:
        from channels_redis.pubsub import RedisPubSubChannelLayer
    except ImportError:
        return False
    return isinstance(layer, RedisPubSubChannelLayer)


async def _add_on_redis(layer: Any, members: dict[str, list[str]]) -> None:
    """What ``RedisChannelLayer.group_add`` writes (the member with the time it joined, and
    the group's expiry), for every group and channel, in one round trip per server."""
    now = time.time()
    by_server: dict[int, list[tuple[str, list[str]]]] = defaultdict(list)
    for group, channels in members.items():
        assert layer.require_valid_group_name(group), "Group name not valid"
        by_server[layer.consistent_hash(group)].append((group, channels))
    for index, groups in by_server.items():
        connection = layer.connection(index)
        async with connection.pipeline(transaction=False) as pipe:
            for group, channels in groups:
                key = layer._group_key(group)
                pipe.zadd(key, dict.fromkeys(channels, now))
                pipe.expire(key, layer.group_expiry)
            await pipe.execute()
