"""Chat lines as the table's sockets push them: read once and drawn once per kind of reader.

A chat line is announced to a table's social group by its number alone
(``games.social.chat``). The first socket of this process to hear it reads
the line, the table's seats, and, for every person whose socket this
process holds at that table, whether they muted its author or switched the
chat off: the same few queries however many sockets there are. The line is
then drawn once per kind of reader, its room, language, whether it is their
own line and the invite they came with, and each socket sends the drawing
that fits its user, as the table's hub does with pictures
(``games.table.live``). Someone whose socket opened after the line was read
costs two queries more.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from games.match.access import invite_matches
from games.match.errors import MatchNotFound
from games.social import chat
from games.social.context import chat_line_context
from games.social.models import ChatMessage, ChatMute

# The latest lines this process keeps, drawn, for the sockets still to send them.
LINES_KEPT = 256


@dataclass(frozen=True)
class ReaderKey:
    """What a drawing of a line depends on besides the line."""

    room: str
    language: str
    own: bool
    invite: str


@dataclass
class _Line:
    """One chat line as read for this process's sockets at its table."""

    message: ChatMessage | None
    where: chat.Seating | None
    # Of the people asked about, those who do not see the author's lines.
    unseen_by: set[int] = field(default_factory=set)
    asked: set[int] = field(default_factory=set)
    drawings: dict[ReaderKey, str] = field(default_factory=dict)


class ChatLines:
    """This process's latest chat lines and their drawings."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lines: OrderedDict[int, _Line] = OrderedDict()

    def known(
        self, message_id: int, match_id: int, user: Any, invite: str, language: str
    ) -> str | None:
        """The line as ``user``'s socket sends it ("" for nothing) when this process has
        read it for them; None when that needs the database (never reads it)."""
        with self._lock:
            line = self._lines.get(message_id)
            if line is None or user.pk not in line.asked:
                return None
        return self._drawing(line, match_id, user, invite, language)

    def line(
        self,
        message_id: int,
        match_id: int,
        user: Any,
        invite: str,
        language: str,
        viewers: Iterable[int],
    ) -> str:
        """The line as ``user``'s socket sends it ("" for nothing), read when needed.

        ``viewers``: the people whose sockets this process holds at the table,
        asked about all at once when the line is first read.
        """
        with self._lock:
            line = self._lines.get(message_id)
        if line is None:
            line = _read(message_id, {user.pk, *viewers})
            with self._lock:
                line = self._lines.setdefault(message_id, line)
                while len(self._lines) > LINES_KEPT:
                    self._lines.popitem(last=False)
        if user.pk not in line.asked and line.message is not None:
            unseen = not chat.chat_enabled(user) or (
                ChatMute.objects.filter(viewer=user, muted_id=line.message.author_id).exists()
            )
            with self._lock:
                line.asked.add(user.pk)
                if unseen:
                    line.unseen_by.add(user.pk)
        return self._drawing(line, match_id, user, invite, language)

    def _drawing(self, line: _Line, match_id: int, user: Any, invite: str, language: str) -> str:
        message, where = line.message, line.where
        if message is None or where is None or message.match_id != match_id:
            return ""
        if user.pk in line.unseen_by or chat.room_of(where, user, invite) != message.room:
            return ""
        key = ReaderKey(
            room=message.room,
            language=language,
            own=message.author_id == user.pk,
            invite=invite if invite_matches(where.match, invite) else "",
        )
        with self._lock:
            drawn = line.drawings.get(key)
        if drawn is None:
            # A copy: the line is decorated in the language being drawn.
            shown = copy.copy(message)
            with translation.override(language):
                context = chat_line_context(where, shown, own=key.own, invite=key.invite)
                drawn = render_to_string("games/chat.html#pushed-line", context)
            with self._lock:
                drawn = line.drawings.setdefault(key, drawn)
        return drawn


def _read(message_id: int, people: set[int]) -> _Line:
    """Line ``message_id``, its table's seats, and which of ``people`` do not see it."""
    from accounts.models import Profile

    message = ChatMessage.objects.select_related("author").filter(pk=message_id).first()
    if message is None or message.hidden:
        return _Line(None, None, asked=people)
    try:
        where = chat.seating(message.match_id)
    except MatchNotFound:
        return _Line(None, None, asked=people)
    muting = ChatMute.objects.filter(viewer_id__in=people, muted_id=message.author_id)
    chat_off = Profile.objects.filter(user_id__in=people, chat_enabled=False)
    unseen = set(muting.values_list("viewer_id", flat=True))
    unseen |= set(chat_off.values_list("user_id", flat=True))
    return _Line(message, where, unseen_by=unseen, asked=people)


CHAT_LINES = ChatLines()
