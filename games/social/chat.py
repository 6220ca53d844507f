"""Table chat: who may say what, where, how often; muting, reporting and bans.

Each table has two rooms: its seated players talk in one, everyone else who
may watch it in the other, and neither reads the other's. Who is in which
room is decided by ``games.match.access.chat_room``, the one place that says
who may see a match. A chat line is never a match event: it is stored in
its own table and announced to the table's sockets by its number alone,
so the channel layer carries no text and never a card; each server process
reads the line once for its sockets there and shows it to each user whose
room, mutes and settings allow (``games.social.lines``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from games.match import access
from games.match.errors import MatchNotFound, NotAllowed, ServiceError
from games.match.models import Match, Seat
from games.social.broadcast import announce_on_commit
from games.social.chat_text import clean
from games.social.models import CHAT_MAX_LENGTH, ChatBan, ChatMessage, ChatMute, ChatReport
from games.social.phrases import PHRASES

# At most this many messages from one player in this many seconds, all tables together.
RATE_MESSAGES = 5
RATE_SECONDS = 10
# The lines a table's chat shows when the page opens, and a report keeps as context.
SHOWN_LINES = 50
REPORT_CONTEXT_LINES = 10


class ChatRefused(ServiceError):
    code = "chat_refused"
    default_message = _("You cannot chat here.")


class ChatTooFast(ChatRefused):
    code = "chat_too_fast"
    default_message = _("You are sending messages too fast: wait a few seconds, then try again.")


class ChatBanned(ChatRefused):
    code = "chat_banned"
    default_message = _("You may not chat until %(until)s.")


class ChatOff(ChatRefused):
    code = "chat_off"
    default_message = _("You switched the table chat off in your profile.")


class BadChatMessage(ChatRefused):
    code = "chat_bad_message"
    default_message = _("Write a message of 1 to 200 characters.")


class InvisibleChatMessage(BadChatMessage):
    code = "chat_invisible_message"
    default_message = _(
        "This message shows nothing once invisible and control characters are taken out: "
        "write some letters, digits or emoji."
    )


@dataclass(frozen=True)
class Seating:
    """A match with its seats: what the access rule needs."""

    match: Match
    seats: list[Seat]


def seating(match_id: int) -> Seating:
    """The match and its seats; raises MatchNotFound."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound()
    return Seating(match, list(Seat.objects.filter(match=match)))


def room_of(where: Seating, user: Any, invite: str = "") -> str | None:
    """The room ``user`` reads and writes at this table, or None."""
    return access.chat_room(where.match, where.seats, user, invite)


def chat_enabled(user: Any) -> bool:
    """False when the player switched the chat off in their profile."""
    profile = getattr(user, "profile", None) if _has_profile(user) else None
    return profile is None or bool(profile.chat_enabled)


def _has_profile(user: Any) -> bool:
    try:
        user.profile  # noqa: B018
    except Exception:  # RelatedObjectDoesNotExist: nothing saved yet, the defaults hold.
        return False
    return True


def set_chat_enabled(user: Any, enabled: bool) -> None:
    """Switch the table chat on or off for ``user`` (saved in their profile)."""
    from accounts.models import Profile

    Profile.objects.update_or_create(user=user, defaults={"chat_enabled": enabled})


def ban_until(user: Any, now: datetime | None = None) -> datetime | None:
    """When the player's current chat ban ends, if they are banned."""
    now = now or timezone.now()
    ban = ChatBan.objects.filter(user=user, until__gt=now).order_by("-until").first()
    return ban.until if ban else None


# --- Writing ------------------------------------------------------------------


def post(
    user: Any, match_id: int, *, text: str = "", phrase: str = "", invite: str = ""
) -> ChatMessage:
    """Say ``text`` (or the quick phrase ``phrase``) in ``user``'s room at the table.

    The text is cleaned first (``games.social.chat_text``). Raises NotAllowed
    (anonymous), MatchNotFound (also a private table one may not see), ChatOff,
    ChatBanned, BadChatMessage (InvisibleChatMessage when nothing visible is
    left), ChatTooFast.
    """
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Please log in first."))
    where = seating(match_id)
    room = room_of(where, user, invite)
    if room is None:
        raise MatchNotFound()
    if not chat_enabled(user):
        raise ChatOff()
    now = timezone.now()
    until = ban_until(user, now)
    if until is not None:
        raise ChatBanned(until=date_format(timezone.localtime(until), "DATETIME_FORMAT"))
    typed = " ".join(text.split())
    text = clean(typed)
    if phrase:
        if phrase not in PHRASES:
            raise BadChatMessage()
        text = ""
    elif typed and not text:
        raise InvisibleChatMessage()
    elif not text or len(text) > CHAT_MAX_LENGTH:
        raise BadChatMessage()
    with transaction.atomic():
        # One player's messages queue up here, so that racing posts count each other.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        recent = ChatMessage.objects.filter(
            author=user, created_at__gt=now - timedelta(seconds=RATE_SECONDS)
        ).count()
        if recent >= RATE_MESSAGES:
            raise ChatTooFast()
        message = ChatMessage.objects.create(
            match=where.match, room=room, author=user, text=text, phrase=phrase, created_at=now
        )
        announce_on_commit(where.match.pk, {"type": "chat.message", "id": message.pk})
    return message


def hide(message: ChatMessage) -> None:
    """Staff hide a message: it disappears from every page showing it."""
    with transaction.atomic():
        ChatMessage.objects.filter(pk=message.pk).update(hidden=True)
        announce_on_commit(message.match_id, {"type": "chat.hidden", "id": message.pk})


def ban(user: Any, hours: float, *, by: Any = None, reason: str = "") -> ChatBan:
    """Bar ``user`` from chatting for ``hours`` from now."""
    return ChatBan.objects.create(
        user=user,
        until=timezone.now() + timedelta(hours=hours),
        reason=reason,
        created_by=by,
    )


def mute(viewer: Any, muted_id: int, *, match_id: int, invite: str = "") -> None:
    """``viewer`` no longer sees the chat lines of player ``muted_id``, at any table.

    Only someone who wrote in the viewer's room at this table may be muted
    from it: a mute never turns a number into a name the viewer has not
    seen. Raises MatchNotFound (no room for the viewer here), ChatRefused
    (oneself, or nobody who wrote in that room).
    """
    where = seating(match_id)
    room = room_of(where, viewer, invite)
    if room is None:
        raise MatchNotFound()
    wrote_here = ChatMessage.objects.filter(
        match=where.match, room=room, author_id=muted_id, hidden=False
    )
    if muted_id == viewer.pk or not wrote_here.exists():
        raise ChatRefused()
    try:
        with transaction.atomic():
            ChatMute.objects.get_or_create(viewer=viewer, muted_id=muted_id)
    except IntegrityError:
        pass


def unmute(viewer: Any, muted_id: int) -> None:
    """``viewer`` sees player ``muted_id``'s lines again."""
    ChatMute.objects.filter(viewer=viewer, muted_id=muted_id).delete()


def muted_ids(viewer: Any) -> set[int]:
    """The players whose lines ``viewer`` does not see."""
    return set(ChatMute.objects.filter(viewer=viewer).values_list("muted_id", flat=True))


def report(reporter: Any, message_id: int, *, match_id: int, invite: str = "") -> ChatReport:
    """File ``message_id`` for staff, with the room's lines before it and the match's state.

    Only someone who can read the message may report it; reporting twice
    keeps the first report. Raises MatchNotFound (no such message for them),
    ChatRefused (one's own message).
    """
    message = ChatMessage.objects.select_related("author", "match").filter(pk=message_id).first()
    if message is None or message.match_id != match_id:
        raise MatchNotFound()
    where = seating(message.match_id)
    if room_of(where, reporter, invite) != message.room:
        raise MatchNotFound()
    if message.author_id == reporter.pk:
        raise ChatRefused(_("You cannot report your own message."))
    before = (
        ChatMessage.objects.filter(match=message.match, room=message.room, id__lt=message.pk)
        .select_related("author")
        .order_by("-id")[:REPORT_CONTEXT_LINES]
    )
    context = {
        "match": message.match_id,
        "room": message.room,
        "match_status": message.match.status,
        "match_seq": message.match.seq,
        "message": _line_record(message),
        "before": [_line_record(line) for line in reversed(list(before))],
    }
    existing = ChatReport.objects.filter(message=message, reporter=reporter).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return ChatReport.objects.create(
                message=message, reporter=reporter, context=context, created_at=timezone.now()
            )
    except IntegrityError:
        return ChatReport.objects.get(message=message, reporter=reporter)


def _line_record(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "author": message.author.get_username(),
        "text": message.text,
        "phrase": message.phrase,
        "at": message.created_at.isoformat(),
    }


# --- Reading ------------------------------------------------------------------


def lines_for(where: Seating, room: str, viewer: Any) -> list[ChatMessage]:
    """The latest lines of ``room`` that ``viewer`` sees: not hidden, not from those they muted."""
    lines = (
        ChatMessage.objects.filter(match=where.match, room=room, hidden=False)
        .exclude(author_id__in=muted_ids(viewer))
        .select_related("author")
        .order_by("-id")[:SHOWN_LINES]
    )
    return list(reversed(list(lines)))
