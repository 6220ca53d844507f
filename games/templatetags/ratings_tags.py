"""``{% player_link username label %}``: a player's name as a link to their public profile."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def player_link(username: object, label: object = None, new_tab: bool = False) -> SafeString:
    """``label`` (default: the username) linked to the profile of ``username``.

    Plain text for a bot, an empty seat or an imported document's name (no
    username). ``new_tab`` opens the profile beside a live table instead of
    leaving it.
    """
    text = label if label not in (None, "") else username
    if not isinstance(username, str) or not username:
        return conditional_escape("" if text is None else str(text))
    url = _profile_url(username)
    if new_tab:
        return format_html(
            '<a class="player-link" href="{}" target="_blank" rel="noopener">{}</a>', url, text
        )
    return format_html('<a class="player-link" href="{}">{}</a>', url, text)


@lru_cache(maxsize=4096)
def _profile_url(username: str) -> str:
    # Each seat of every live table names its player at every move: reversing
    # the address each time was a good part of drawing a seat.
    return reverse("ratings:profile", args=[username])
