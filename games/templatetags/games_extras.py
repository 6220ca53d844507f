"""Template helpers of the games pages."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeData, SafeString, mark_safe

from games.display import labels

register = template.Library()

SUIT_OF_SYMBOL = {symbol: suit for suit, symbol in labels.SUIT_SYMBOLS.items()}
SYMBOLS = re.compile("([" + "".join(SUIT_OF_SYMBOL) + "])")


@register.filter
def lookup(mapping: dict[Any, Any], key: Any) -> Any:
    """``mapping[key]`` in a template, or an empty string when it is missing."""
    return mapping.get(key, "")


@register.filter
def suits(text: Any) -> SafeString:
    """``text`` escaped, each suit symbol in it marked with its suit so it takes the suit's colour.

    "Hokum ♦" reads ``Hokum <span class="suit-sym suit-D">♦</span>``: the
    same colours as the cards, four-colour included.
    """
    pieces = SYMBOLS.split(str(text))
    escape = (lambda piece: piece) if isinstance(text, SafeData) else conditional_escape
    out = []
    for index, piece in enumerate(pieces):
        if index % 2:
            out.append(
                format_html(
                    '<span class="suit-sym suit-{}">{}</span>', SUIT_OF_SYMBOL[piece], piece
                )
            )
        else:
            out.append(escape(piece))
    return mark_safe("".join(out))
