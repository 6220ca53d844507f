"""The quick-match page's WebSocket: the queue as it stands, live, until a table is found.

On connecting, and whenever the queue of the player's game changes (a group
message carries nothing but "it changed"), the consumer renders the
player's status (how many are waiting, since when, the bots offer) and sends
it as an htmx out-of-band swap. Once the player is seated it sends the
table's address, which the page follows. Every ``TICK_SECONDS`` it marks
the page as still open and tries the match itself, so a table is made even
when every announcement was lost; closing the player's last page leaves the
queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.display.language import language_of
from games.match.dispatch import DirectDispatch
from games.social import queue

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
TEMPLATE = "games/quick_match.html"


class QueueConsumer(DirectDispatch, AsyncWebsocketConsumer):
    """Pushes one player's place in the quick-match queue."""

    user_id: int
    entry_id: int | None
    pool: str | None
    language: str
    ticker: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user_id = user.pk
        self.language = language_of(self.scope)
        self.pool = None
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        entry = (query.get("entry") or [""])[0]
        # The entry the page was opened for: once it is matched, the page goes to the table.
        self.entry_id = int(entry) if entry.isascii() and entry.isdigit() else None
        await database_sync_to_async(queue.page_opened)(user, self.channel_name)
        await self.channel_layer.group_add(queue.user_group(user.pk), self.channel_name)
        await self.accept()
        await self.push()
        self.ticker = asyncio.get_running_loop().create_task(self._tick())

    async def disconnect(self, code: int) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.ticker
        if not hasattr(self, "user_id"):
            return
        await self.channel_layer.group_discard(queue.user_group(self.user_id), self.channel_name)
        if self.pool:
            await self.channel_layer.group_discard(self.pool, self.channel_name)
        await database_sync_to_async(queue.page_closed)(self.scope["user"], self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page says nothing; its buttons are plain form posts."""

    async def queue_changed(self, event: dict[str, Any]) -> None:
        await self.push()

    async def session_ended(self, event: dict[str, Any]) -> None:
        """The player logged out (``games.social.session_end``): this page shows nothing more."""
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def push(self) -> None:
        html, pool = await database_sync_to_async(self._render)()
        if pool != self.pool:
            if self.pool:
                await self.channel_layer.group_discard(self.pool, self.channel_name)
            if pool:
                await self.channel_layer.group_add(pool, self.channel_name)
            self.pool = pool
        await self.send(text_data=html)

    def _render(self) -> tuple[str, str | None]:
        user = self.scope["user"]
        context = status_context(user, self.entry_id)
        status: queue.QueueStatus = context["status"]
        entry = status.entry
        if entry is not None:
            self.entry_id = entry.pk
        pool = queue.pool_group(entry.mode, entry.play_timer) if entry else None
        with translation.override(self.language):
            html = render_to_string(f"{TEMPLATE}#status", {**context, "oob": True})
        return html, pool

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(queue.TICK_SECONDS)
            try:
                # Joining again keeps the groups from expiring while the page is open.
                await self.channel_layer.group_add(
                    queue.user_group(self.user_id), self.channel_name
                )
                if self.pool:
                    await self.channel_layer.group_add(self.pool, self.channel_name)
                await database_sync_to_async(self._tick_once)()
                await self.push()
            except Exception:
                logger.exception("quick match: tick failed")

    def _tick_once(self) -> None:
        queue.page_seen(self.channel_name)
        queue.sweep()
        status = queue.status_of(self.scope["user"])
        if status.entry is not None:
            queue.match_waiting(status.entry.mode, status.entry.play_timer)


def status_context(user: Any, entry_id: int | None = None) -> dict[str, Any]:
    """The template context of the queue status region for ``user``.

    ``entry_id`` is the queue entry the page was opened for: when it has been
    matched since, the context carries the table's address.
    """
    status = queue.status_of(user)
    seated = queue.seated_by(user, entry_id) if status.entry is None and entry_id else None
    return {
        "status": status,
        "seated_url": reverse("play:table", args=[seated.pk]) if seated else "",
        "waited_ms": int(status.waited_seconds * 1000),
        "bots_after_ms": int(status.bots_after_seconds * 1000),
    }
