"""The live table's WebSocket: one per table page, pushing that user's own picture.

The channel layer only ever says "match M is at event N" (with a revision
token, ``games.match.broadcast``), so no hidden card travels through it. On
each such message the consumer takes its viewer's picture from this
process's hub (``games.table.live``: the match read once per version, each
view drawn once) and sends only the parts that changed since the picture it
last sent, as out-of-band morphs. On connecting, and when the page says it
shows another picture than the one last sent (it missed a push, or took an
answer in between), it sends the whole region — at most once per picture.

A user may hold ``TABLE_SOCKETS_PER_USER`` sockets per match in one process,
and each process and each person only so many sockets in all
(``games.match.admission``); one more is accepted and closed at once with
code 4429, which tells the page to try again later (``static/js/table.js``
does, backing off). Once the match is over, the socket stays open for
``TABLE_SOCKETS_AFTER_END_SECONDS`` and is then closed with code 4410: the
page says that the table no longer updates, and a long-finished match
holds no socket for good.

A private table's invite is the one the user's session holds
(``games.match.invites``); the socket's address carries none, and one given
there is ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.utils import timezone

from baloot_site.consumers import DirectDispatch
from games.display.language import language_of
from games.match import admission, memberships
from games.match.access import may_see, seat_of
from games.match.broadcast import match_group
from games.match.invites import held
from games.match.models import Match, Seat
from games.match.versions import MatchVersion
from games.social.broadcast import social_group
from games.social.sockets import TableSocialMixin
from games.table.context import Viewer, viewer_of
from games.table.live import HUB, Picture
from games.table.session_end import user_group

logger = logging.getLogger(__name__)

# Close codes in the application range. The page's script tries again later
# after CLOSE_TOO_MANY only; after the others it shows why and stays.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_MATCH_OVER = 4410
CLOSE_TOO_MANY = 4429
# A client's report is a few dozen bytes; anything longer is not ours.
MAX_CLIENT_MESSAGE = 256


class TableConsumer(DirectDispatch, TableSocialMixin, AsyncWebsocketConsumer):
    """Pushes one user's view of one match."""

    match_id: int
    group: str
    invite: str
    language: str
    joined: bool = False
    admitted: admission.Pass | None = None
    sent: Picture | None = None
    resent_for: str | None = None
    # When the match ended, once a version shows it over; and the timer that then closes.
    ended_at: datetime | None = None
    letting_go: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.invite = await database_sync_to_async(held)(self.scope.get("session"), self.match_id)
        self.language = language_of(self.scope)
        playing = self._playing(HUB.known(self.match_id, 0, None))
        if playing is None:
            playing = await database_sync_to_async(self._playing_here)()
        kind = admission.Kind.PLAYING if playing else admission.Kind.WATCHING
        if HUB.join(self.match_id, user.pk):
            self.admitted = await admission.admit(user.pk, kind)
            if self.admitted is None:
                HUB.leave(self.match_id, user.pk)
        if self.admitted is None:
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.joined = True
        # In the groups first, so that no change between the reading and the
        # joining goes unheard. The user's group closes the socket when their
        # session ends (games.table.session_end); the social group carries chat.
        self.group = match_group(self.match_id)
        await memberships.join(self.channel_layer, self.channel_name, self._groups())
        picture = await database_sync_to_async(self._picture)(0, None, fresh=True, read=True)
        if picture is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.accept()
        await self._send(picture, whole=True)

    async def disconnect(self, code: int) -> None:
        if self.letting_go is not None and self.letting_go is not asyncio.current_task():
            self.letting_go.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.letting_go
        if hasattr(self, "group"):
            await memberships.leave(self.channel_layer, self.channel_name, self._groups())
        if self.joined:
            self.joined = False
            HUB.leave(self.match_id, self.scope["user"].pk)
        if self.admitted is not None:
            await admission.release(self.admitted)

    def _playing(self, version: MatchVersion | None) -> bool | None:
        """True when the user holds a seat at the match and it is not over; None unknown."""
        if version is None:
            return None
        seated = seat_of(version.seats.values(), self.scope["user"]) is not None
        return seated and not version.match.is_over

    def _playing_here(self) -> bool:
        """``_playing``, read from the database."""
        return (
            Seat.objects.filter(match_id=self.match_id, user=self.scope["user"])
            .exclude(match__status__in=[Match.Status.FINISHED, Match.Status.ABORTED])
            .exists()
        )

    def _table_viewers(self) -> frozenset[int]:
        return HUB.viewers(self.match_id)

    async def session_ended(self, event: dict[str, Any]) -> None:
        """The user logged out or changed their password: this socket shows nothing more."""
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def match_event(self, event: dict[str, Any]) -> None:
        """The match moved on, or its seats changed: push what changed for this viewer.

        An announcement that carries its step brings this process's version of
        the match up to date without the database, when it follows on from it.
        A clock announcement (time given back after an outage) comes with
        no revision: the match is read again for its fresh countdown.
        """
        seq = event.get("seq", 0)
        if self.sent is not None and seq < self.sent.seq:
            return
        clock = bool(event.get("clock"))
        step = event.get("next")
        if step is not None and not clock:
            # The first socket of this process to hear it takes the step for all.
            HUB.advance(self.match_id, seq, event.get("rev"), step)
        await self.push(seq, event.get("rev"), clock=clock)

    def _groups(self) -> list[str]:
        """The groups this socket belongs to while connected (games.match.memberships)."""
        return [self.group, user_group(self.scope["user"].pk), social_group(self.match_id)]

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page reports the picture it shows; another one than sent gets the whole region."""
        if text_data is None or len(text_data) > MAX_CLIENT_MESSAGE:
            return
        try:
            report = json.loads(text_data)
            shown = report.get("view")
        except (ValueError, AttributeError):
            return
        if self.sent is None:
            return
        if shown != self.sent.view:
            # Once per picture sent: a page that keeps asking is not redrawn for it.
            if self.resent_for == self.sent.view:
                return
            self.resent_for = self.sent.view
            picture = await database_sync_to_async(self._picture)(self.sent.seq, None, fresh=True)
            if picture is None:
                await self.close(code=CLOSE_FORBIDDEN)
                return
            await self._send(picture, whole=True)
            return
        # The page is current with what was sent; a push lost on the way
        # would show as a later event in the database.
        if await database_sync_to_async(HUB.stale)(self.match_id, self.sent.seq):
            await self.push(self.sent.seq + 1, None)

    async def push(self, seq: int, revision: str | None, *, clock: bool = False) -> None:
        """Send this viewer's picture of the match at ``seq`` or later, as changes.

        ``clock``: the countdown changed without an event. The match is read
        again once per process for each such announcement (its revision
        tells them apart) and each view drawn again once; one relayed without
        a revision is read and drawn for every socket.
        """
        unnamed = clock and revision is None
        picture = None if unnamed else self._kept_picture(seq, revision, fresh=clock)
        if picture is None:
            picture = await database_sync_to_async(self._picture)(
                seq, revision, fresh=clock, read=unnamed, redraw=unnamed
            )
        if picture is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self._send(picture, whole=False)

    async def _send(self, picture: Picture, *, whole: bool) -> None:
        # Never an older picture after a newer one: pushes can race.
        if self.sent is not None and picture.seq < self.sent.seq:
            return
        frame = picture.whole() if whole else picture.changes_since(self.sent)
        if frame is not None:
            self.sent = picture
            await self.send(text_data=frame)
        if self.ended_at is not None and self.letting_go is None:
            self.letting_go = asyncio.get_running_loop().create_task(self._let_go())

    def _note_end(self, version: MatchVersion) -> None:
        """Remember when the match ended, once a version shows it over."""
        match = version.match
        if match.is_over and self.ended_at is None:
            self.ended_at = match.finished_at or timezone.now()

    async def _let_go(self) -> None:
        """Close the socket TABLE_SOCKETS_AFTER_END_SECONDS after the match ended."""
        assert self.ended_at is not None
        left = (self.ended_at - timezone.now()).total_seconds()
        await asyncio.sleep(max(0.0, left + settings.TABLE_SOCKETS_AFTER_END_SECONDS))
        await self.close(code=CLOSE_MATCH_OVER)

    def _kept_picture(
        self, seq: int, revision: str | None, *, fresh: bool = False
    ) -> Picture | None:
        """This viewer's picture at ``seq`` or later when this process holds the match's
        version; None when that needs the database (or the viewer may no longer look).

        Drawn here, in the event loop, rather than in the database thread:
        the match is in memory and drawing reads nothing, so the push costs
        no trip to another thread and back, each of which may wait for the
        interpreter behind the worker's moves.
        """
        version = HUB.known(self.match_id, seq, revision)
        if version is None:
            return None
        viewer = self._viewer(version)
        if viewer is None:
            return None
        try:
            return HUB.picture(version, viewer, fresh=fresh)
        except SynchronousOnlyOperation:
            # Something the picture shows was not read with the match: draw it
            # where the database may be used.
            logger.warning("match %s: a picture needed the database", self.match_id)
            return None

    def _picture(
        self,
        seq: int,
        revision: str | None,
        *,
        fresh: bool = False,
        read: bool = False,
        redraw: bool = False,
    ) -> Picture | None:
        """This viewer's picture at ``seq`` or later; None when they may no longer look.

        ``fresh`` wants a picture drawn within the last second, ``redraw`` one
        drawn now, ``read`` the match read from the database.
        """
        try:
            version = HUB.version(self.match_id, seq, revision, fresh=read)
        except Match.DoesNotExist:
            return None
        viewer = self._viewer(version)
        if viewer is None:
            return None
        return HUB.picture(version, viewer, fresh=fresh, redraw=redraw)

    def _viewer(self, version: MatchVersion) -> Viewer | None:
        """This socket's user as a viewer of ``version``; None when they may no longer look."""
        user = self.scope["user"]
        if not may_see(version.match, user, version.seats.values(), self.invite):
            return None
        self._note_end(version)
        return viewer_of(version, user, invite=self.invite, language=self.language)
