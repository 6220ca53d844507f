"""What the chat panel and the rematch panel show one viewer: for pages, answers and pushes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse

from games.match.models import Match, Seat
from games.social import chat, rematch
from games.social.models import ChatMessage
from games.social.phrases import PHRASES, phrase_text


def _urls(match_id: int) -> dict[str, str]:
    return {
        "post": reverse("social:chat", args=[match_id]),
        "mute": reverse("social:chat_mute", args=[match_id]),
        "report": reverse("social:chat_report", args=[match_id]),
    }


def _decorate(line: ChatMessage) -> ChatMessage:
    # The phrase in the language being rendered.
    line.phrase_text = phrase_text(line.phrase) if line.phrase else ""  # type: ignore[attr-defined]
    return line


def chat_context(
    where: chat.Seating, user: Any, *, invite: str = "", error: str = ""
) -> dict[str, Any]:
    """The chat panel of a table for ``user``: an empty context when they have no room there."""
    room = chat.room_of(where, user, invite)
    if room is None:
        return {"chat": None}
    enabled = chat.chat_enabled(user)
    muted = chat.muted_ids(user)
    return {
        "chat": {
            "room": room,
            "enabled": enabled,
            "lines": [_decorate(line) for line in chat.lines_for(where, room, user)]
            if enabled
            else [],
            "muted": list(get_user_model().objects.filter(pk__in=muted).order_by("username")),
            "viewer_id": user.pk,
            "phrases": [(key, str(label)) for key, label in PHRASES.items()],
            "urls": _urls(where.match.pk),
            "error": error,
        }
    }


def chat_line_context(
    where: chat.Seating, line: ChatMessage, *, own: bool, invite: str = ""
) -> dict[str, Any]:
    """The context of one pushed chat line, for its author (``own``) or another reader
    (``invite``: the table's live invite the reader came with, or empty)."""
    return {
        "line": _decorate(line),
        "chat": {
            # The template tells one's own lines by the author: nobody else's id is needed.
            "viewer_id": line.author_id if own else None,
            "urls": _urls(where.match.pk),
            "invite": invite,
        },
    }


def rematch_context(match: Match, user: Any, *, oob: bool = False) -> dict[str, Any]:
    """The rematch panel of a match for ``user``: empty until the match is finished.

    A spectator of a private table asks for it with the invite their session
    holds (``games.match.invites``), so its address carries none.
    """
    url = reverse("social:rematch", args=[match.pk])
    if match.status != Match.Status.FINISHED:
        return {"rematch": None, "rematch_url": url, "oob": oob}
    seats = list(Seat.objects.filter(match=match).select_related("user"))
    state = rematch.state_for(match, seats, user)
    return {
        "rematch": state,
        "rematch_url": url,
        "rematch_left_ms": int(state.seconds_left * 1000),
        "oob": oob,
    }
