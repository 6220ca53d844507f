"""The live table's WebSocket: one per table page, pushing that user's own picture.

The channel layer only ever says "match M is at event N"
(``games.match.broadcast``). On each such message the consumer reads the match and
renders the table region for its own user — their seat's ``view_for``, or
a spectator's — and sends it as an htmx out-of-band swap carrying the event
number. Every push is the whole region, so a missed push is repaired by the
next one; on connecting, and whenever the client reports the number it
shows and that number is out of date, the consumer sends a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from games.match.access import may_see
from games.match.broadcast import match_group
from games.match.models import Match
from games.social.sockets import TableSocialMixin
from games.table.render import read_match, render_table

logger = logging.getLogger(__name__)

# Close codes in the application range: the page's script does not retry them.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
# A client's report is a few dozen bytes; anything longer is not ours.
MAX_CLIENT_MESSAGE = 256


class TableConsumer(TableSocialMixin, AsyncWebsocketConsumer):
    """Pushes one user's view of one match."""

    match_id: int
    group: str
    sent_seq: int
    invite: str
    language: str

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.invite = (query.get("invite") or [""])[0]
        self.language = language_of(self.scope)
        self.sent_seq = -1
        if not await self._allowed():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = match_group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.social_join()
        self.renewal = asyncio.ensure_future(self._renew_membership())
        await self.accept()
        await self.push()

    async def disconnect(self, code: int) -> None:
        renewal = getattr(self, "renewal", None)
        if renewal is not None:
            renewal.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewal
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.social_leave()

    async def match_event(self, event: dict[str, Any]) -> None:
        """The match moved on: push this user's picture unless one as new was sent.

        A clock announcement (time given back after an outage) pushes the
        same event again, with its fresh countdown.
        """
        if event.get("clock"):
            await self.push(force=True)
        elif event.get("seq", 0) > self.sent_seq:
            await self.push()

    async def _renew_membership(self) -> None:
        """Join the match's group again every CHANNEL_GROUP_RENEWAL seconds while connected.

        The layer drops a member that has not joined for its group expiry,
        which is how the channels of a killed process leave; a live socket
        must not be dropped with them.
        """
        while True:
            await asyncio.sleep(settings.CHANNEL_GROUP_RENEWAL)
            try:
                await self.channel_layer.group_add(self.group, self.channel_name)
                await self.social_join()
            except Exception:  # each layer backend fails its own way
                logger.warning("match %s: could not renew the group membership", self.match_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The client reports the event number it shows; a stale one gets a full refresh."""
        if text_data is None or len(text_data) > MAX_CLIENT_MESSAGE:
            return
        try:
            shown = json.loads(text_data).get("seq")
        except (ValueError, AttributeError):
            return
        current = await database_sync_to_async(_current_seq)(self.match_id)
        if shown != current:
            await self.push(force=True)

    async def push(self, *, force: bool = False) -> None:
        """Send the table region as this user may see it now."""
        rendered = await database_sync_to_async(self._render)()
        if rendered is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        html, seq = rendered
        # Never send an older picture after a newer one: pushes can race.
        if seq < self.sent_seq or (seq == self.sent_seq and not force):
            return
        self.sent_seq = seq
        await self.send(text_data=html)

    @database_sync_to_async
    def _allowed(self) -> bool:
        try:
            reading = read_match(self.match_id)
        except Match.DoesNotExist:
            return False
        return may_see(reading.match, self.scope["user"], reading.seats.values(), self.invite)

    def _render(self) -> tuple[str, int] | None:
        try:
            reading = read_match(self.match_id)
        except Match.DoesNotExist:
            return None
        user = self.scope["user"]
        if not may_see(reading.match, user, reading.seats.values(), self.invite):
            return None
        with translation.override(self.language):
            html = render_table(reading, user, invite=self.invite, oob=True)
        return html, reading.seq


def _current_seq(match_id: int) -> int | None:
    return Match.objects.filter(pk=match_id).values_list("seq", flat=True).first()


def language_of(scope: dict[str, Any]) -> str:
    """The language to render in: the language cookie, else the browser's preference."""
    cookies = scope.get("cookies") or {}
    candidates = [cookies.get(settings.LANGUAGE_COOKIE_NAME, "")]
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            header = value.decode("latin-1")
            candidates += [code for code, _q in parse_accept_lang_header(header)]
    for code in candidates:
        if not code or code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
