"""Carrying the worker's events to this server's clients when there is no Redis.

Without ``REDIS_URL`` the channel layer lives inside one process, so what
the worker process records (bots' moves, expired timers) would reach no
connected client. With ``RELAY_WORKER_EVENTS`` on (``scripts/run.sh`` turns
it on when ``REDIS_URL`` is unset), the daphne process watches the event
numbers of running matches itself and announces every match that moved, the
same "match M is at event N" message the services send. Consumers ignore an
announcement of an event they already pushed, so hearing one twice is
harmless. With Redis the worker's announcements travel directly and the
relay stays off.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError
from django.db.models import Q

from games.match.broadcast import event_message, match_group
from games.match.models import Match

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
Application = Callable[[Scope, Receive, Send], Awaitable[None]]


class GroupSender(Protocol):
    """The part of a channel layer the relay uses."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None: ...


def moved_matches(seen: dict[int, int]) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """The matches whose last event is past the one in ``seen``, and what to remember next.

    ``seen`` maps running matches to the event number last announced. A match
    that finished is announced one last time, then forgotten. Raises
    DatabaseError when the database fails.
    """
    rows = Match.objects.filter(Q(status=Match.Status.PLAYING) | Q(pk__in=list(seen)))
    moved: list[tuple[int, int]] = []
    remembered: dict[int, int] = {}
    for match_id, seq, status in rows.values_list("pk", "seq", "status"):
        if seq > seen.get(match_id, 0):
            moved.append((match_id, seq))
        if status == Match.Status.PLAYING:
            remembered[match_id] = seq
    return sorted(moved), remembered


async def relay_once(layer: GroupSender, seen: dict[int, int]) -> dict[int, int]:
    """Announce every match that moved since ``seen``; returns the new ``seen``.

    Raises DatabaseError when the database fails.
    """
    moved, remembered = await database_sync_to_async(moved_matches)(seen)
    for match_id, seq in moved:
        await layer.group_send(match_group(match_id), event_message(match_id, seq))
    return remembered


async def relay_forever(interval: float) -> None:
    """Announce moved matches every ``interval`` seconds until cancelled."""
    layer = get_channel_layer()
    if layer is None:
        return
    # What was already there when the server started needs no announcement.
    seen = (await database_sync_to_async(moved_matches)({}))[1]
    while True:
        await asyncio.sleep(interval)
        try:
            seen = await relay_once(layer, seen)
        except DatabaseError:
            logger.exception("relay: database error; retrying")


class RelayingApplication:
    """Wraps the ASGI application; starts the relay in the server's loop on first use."""

    def __init__(self, application: Application) -> None:
        self.application = application
        self.task: asyncio.Task[None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.task is None and settings.RELAY_WORKER_EVENTS:
            self.task = asyncio.get_running_loop().create_task(
                relay_forever(settings.WORKER_INTERVAL)
            )
            logger.info("relay: announcing the worker's events to this server's clients")
        await self.application(scope, receive, send)
