"""Template tags that put the chat, the rematch panel and the chat setting on a page.

The table page includes ``{% table_chat %}`` and ``{% rematch_panel %}``
outside its table region, so the table's own pushes never redraw them; the
profile includes ``{% chat_setting %}``.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.match.errors import MatchNotFound
from games.match.invites import held
from games.social import chat
from games.social.context import chat_context, rematch_context
from games.social.forms import FindGameForm

register = template.Library()


@register.inclusion_tag("games/chat.html#panel", takes_context=True)
def table_chat(context: template.Context) -> dict[str, Any]:
    """The chat panel of the page's match for the page's user (nothing when they have no room)."""
    request = context["request"]
    match = context["match"]
    try:
        where = chat.seating(match.pk)
    except MatchNotFound:
        return {"chat": None}
    result = chat_context(where, request.user, invite=held(request.session, match.pk))
    result["csrf_token"] = context.get("csrf_token")
    return result


@register.inclusion_tag("games/rematch.html#panel", takes_context=True)
def rematch_panel(context: template.Context) -> dict[str, Any]:
    """The rematch panel of the page's match: empty until it is finished."""
    request = context["request"]
    result = rematch_context(context["match"], request.user)
    result["csrf_token"] = context.get("csrf_token")
    return result


@register.inclusion_tag("games/chat_setting.html", takes_context=True)
def chat_setting(context: template.Context) -> dict[str, Any]:
    """The profile's switch for the table chat."""
    request = context["request"]
    return {"enabled": chat.chat_enabled(request.user), "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("games/find_game.html", takes_context=True)
def find_game_form(context: template.Context) -> dict[str, Any]:
    """The "Find a game" form: mode and play timer."""
    return {"find_form": FindGameForm(), "csrf_token": context.get("csrf_token")}
