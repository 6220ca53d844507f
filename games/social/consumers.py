"""The quick-match page's WebSocket: the queue as it stands, live, until a table is found.

On connecting, and whenever the player's own place changes (a message to
their group carries nothing but "it changed"), the consumer renders the
player's status (how many are waiting, since when, the bots offer) and
sends it as an htmx out-of-band swap. Once the player is seated it sends
the table's address, which the page follows. Closing the player's last page
leaves the queue.

When someone joins or leaves a pool, its pages need only the number
waiting. Each server process reads that number once for all of its pages
of the pool and sends it to the pages that show another (``_Pages``); the
announcements that come within ``POOL_COALESCE_SECONDS`` of a reading are
answered together, with one more reading once that moment is over.
Every ``TICK_SECONDS`` the process does the same for all of its pages at
once: one write marks them still open, one pass sweeps the pages that are
gone, each pool is tried for a table (so a table is made even when every
announcement was lost), and only a page whose number or place changed is
sent anything.

A player may hold ``QUEUE_SOCKETS_PER_USER`` pages across the server
processes, and they count among the process's sockets
(``games.match.admission``); one more is accepted and closed at once with
code 4429, which tells the page to try again later.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from baloot_site.consumers import DirectDispatch
from games.display.language import language_of
from games.match import admission, memberships
from games.social import queue
from games.social.models import QueueEntry

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_TOO_MANY = 4429
TEMPLATE = "games/quick_match.html"
# A pool's announcements this close together are answered with one reading.
POOL_COALESCE_SECONDS = 0.25

Pool = tuple[str, int]


class QueueConsumer(DirectDispatch, AsyncWebsocketConsumer):
    """Pushes one player's place in the quick-match queue."""

    user_id: int
    entry_id: int | None
    # The pool the player waits in, as (mode, play timer), and its group.
    pool: Pool | None = None
    group: str | None = None
    shown_count: int | None = None
    language: str
    admitted: admission.Pass | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.admitted = await admission.admit(user.pk, admission.Kind.QUEUE)
        if self.admitted is None:
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.user_id = user.pk
        self.language = language_of(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        entry = (query.get("entry") or [""])[0]
        # The entry the page was opened for: once it is matched, the page goes to the table.
        self.entry_id = int(entry) if entry.isascii() and entry.isdigit() else None
        await database_sync_to_async(queue.page_opened)(user, self.channel_name)
        await memberships.join(self.channel_layer, self.channel_name, [queue.user_group(user.pk)])
        await self.accept()
        await self.push()
        _pages().open(self)

    async def disconnect(self, code: int) -> None:
        if self.admitted is None:
            return
        _pages().close(self)
        groups = [queue.user_group(self.user_id), *([self.group] if self.group else [])]
        await memberships.leave(self.channel_layer, self.channel_name, groups)
        await database_sync_to_async(queue.page_closed)(self.scope["user"], self.channel_name)
        await admission.release(self.admitted)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page says nothing; its buttons are plain form posts."""

    async def queue_changed(self, event: dict[str, Any]) -> None:
        """The player's own place changed: their whole status again."""
        await self.push()

    async def queue_pool(self, event: dict[str, Any]) -> None:
        """Someone joined or left the player's pool: its number, read once for the process."""
        if self.pool is not None:
            _pages().pool_changed(self.pool)

    async def session_ended(self, event: dict[str, Any]) -> None:
        """The player logged out (``games.social.session_end``): this page shows nothing more."""
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def push(self) -> None:
        """Send the player's whole status, and follow their entry into its pool's group."""
        html, pool, count = await database_sync_to_async(self._render)()
        if pool != self.pool:
            group = queue.pool_group(*pool) if pool else None
            if self.group:
                await memberships.leave(self.channel_layer, self.channel_name, [self.group])
            if group:
                await memberships.join(self.channel_layer, self.channel_name, [group])
            self.pool, self.group = pool, group
        self.shown_count = count
        await self.send(text_data=html)

    async def show_count(self, count: int) -> None:
        """Send the number waiting in the player's pool, unless the page shows it already."""
        if count != self.shown_count:
            self.shown_count = count
            await self.send(text_data=count_html(count))

    def _render(self) -> tuple[str, Pool | None, int | None]:
        user = self.scope["user"]
        context = status_context(user, self.entry_id)
        status: queue.QueueStatus = context["status"]
        entry = status.entry
        if entry is not None:
            self.entry_id = entry.pk
        pool = (entry.mode, entry.play_timer) if entry else None
        with translation.override(self.language):
            html = render_to_string(f"{TEMPLATE}#status", {**context, "oob": True})
        return html, pool, status.waiting if entry else None


@lru_cache(maxsize=64)
def count_html(count: int) -> str:
    """The number waiting, as an out-of-band swap (a number is the same in every language)."""
    return render_to_string(f"{TEMPLATE}#count", {"waiting": count, "oob": True})


@dataclass
class _Pages:
    """The quick-match pages of one event loop: their tick, and their pools' numbers."""

    pages: set[QueueConsumer] = field(default_factory=set)
    ticker: asyncio.Task[None] | None = None
    # A pool's pending reading of its number, and whether it changed while being read.
    readings: dict[Pool, asyncio.Task[None]] = field(default_factory=dict)
    changed: set[Pool] = field(default_factory=set)

    def open(self, page: QueueConsumer) -> None:
        self.pages.add(page)
        if self.ticker is None or self.ticker.done():
            self.ticker = asyncio.get_running_loop().create_task(self._tick_forever())

    def close(self, page: QueueConsumer) -> None:
        self.pages.discard(page)
        if not self.pages and self.ticker is not None:
            self.ticker.cancel()
            self.ticker = None

    def pool_changed(self, pool: Pool) -> None:
        """Read the pool's number for all of this loop's pages: now, unless it was read a
        moment ago, and then once more for everything announced meanwhile."""
        reading = self.readings.get(pool)
        if reading is not None and not reading.done():
            self.changed.add(pool)
            return
        self.readings[pool] = asyncio.get_running_loop().create_task(self._read_pool(pool))

    async def _read_pool(self, pool: Pool) -> None:
        try:
            while True:
                # What is announced from here on may not be in this reading: read again.
                self.changed.discard(pool)
                counts = await database_sync_to_async(_counts)([pool])
                await self._show(counts, set())
                await asyncio.sleep(POOL_COALESCE_SECONDS)
                if pool not in self.changed:
                    return
        except Exception:
            logger.exception("quick match: the pool's number was not read")
        finally:
            self.readings.pop(pool, None)

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(queue.TICK_SECONDS)
            pages = list(self.pages)
            if not pages:
                continue
            try:
                # A page that shows a waiting entry names it; one that shows the
                # table or the form has nothing more to hear from the tick.
                waiting = [page for page in pages if page.pool is not None]
                counts, moved = await database_sync_to_async(_tick)(
                    [page.channel_name for page in pages],
                    {page.pool for page in waiting if page.pool is not None},
                    {page.entry_id for page in waiting if page.entry_id is not None},
                )
                await self._show(counts, moved)
            except Exception:
                logger.exception("quick match: tick failed")

    async def _show(self, counts: dict[Pool, int], moved: set[int]) -> None:
        """Send each page what changed for it: its whole status, or its pool's number."""
        for page in list(self.pages):
            try:
                if page.entry_id is not None and page.entry_id in moved:
                    await page.push()
                elif page.pool in counts:
                    await page.show_count(counts[page.pool])
            except Exception:  # one page that failed stops no other
                logger.warning("quick match: a page was not updated", exc_info=True)


def _counts(pools: list[Pool]) -> dict[Pool, int]:
    """How many wait in each pool, as a waiting player's page shows it."""
    return {pool: max(1, queue.live_entries(*pool).count()) for pool in pools}


def _tick(
    channel_names: list[str], pools: set[Pool], entries: set[int]
) -> tuple[dict[Pool, int], set[int]]:
    """The regular pass over a process's queue pages; returns each pool's number and the
    entries no longer waiting (matched, or left)."""
    queue.pages_seen(channel_names)
    queue.sweep()
    for mode, play_timer in pools:
        queue.match_waiting(mode, play_timer)
    waiting = QueueEntry.objects.filter(pk__in=entries, status=QueueEntry.Status.WAITING)
    moved = entries - set(waiting.values_list("pk", flat=True))
    return _counts(sorted(pools)), moved


_by_loop: dict[asyncio.AbstractEventLoop, _Pages] = {}


def _pages() -> _Pages:
    loop = asyncio.get_running_loop()
    pages = _by_loop.get(loop)
    if pages is None:
        pages = _by_loop[loop] = _Pages()
    return pages


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
