"""What the accounts pages show of the games: the profile's record, the invited notice.

The accounts app imports nothing from games (``tests/test_boundaries.py``):
its pages are the site's templates, which load these tags, so the profile
shows the player's matches and the log-in and sign-up pages greet a visitor
who came by an invite link without accounts knowing of matches or invites.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django import template
from django.urls import Resolver404, resolve

from games.history.my_matches import history_lines, my_seats
from games.match.invites import held
from games.match.models import Match

register = template.Library()

# The profile lists the latest matches; "My matches" pages through them all.
RECENT_MATCHES = 10


@register.inclusion_tag("games/player_record.html", takes_context=True)
def player_record(context: template.Context) -> dict[str, Any]:
    """The profile's record (matches played and won) and the player's latest matches."""
    user = context["request"].user
    counted = Match.objects.counted()
    return {
        "played": counted.involving(user).count(),
        "won": counted.won_by(user).count(),
        "rows": history_lines(my_seats(user)[:RECENT_MATCHES]),
    }


@register.simple_tag(takes_context=True)
def invited_to(context: template.Context, url: str) -> bool:
    """True when ``url`` is the page of a match whose invite the visitor's session holds
    (``games.match.invites``): they came by an invite link."""
    try:
        found = resolve(urlsplit(url or "").path)
    except Resolver404:
        return False
    pk = found.kwargs.get("pk")
    return isinstance(pk, int) and bool(held(context["request"].session, pk))
