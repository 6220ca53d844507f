"""Cards in templates, drawn once: ``{% card face %}`` and ``{% card_face face %}``.

A table shows the same few dozen cards over and over, in every picture of
every viewer; including ``games/shared/card.html`` for each of them was most
of the cost of drawing the table. These tags render that template once per
face (its spoken name is part of the face, so once per language too) and
reuse the result. With DEBUG on, every card is rendered afresh, so that an
edited template shows at once.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from games.display.cards import CardFace

register = template.Library()

CARD = "games/shared/card.html"
CARD_FACE = "games/shared/card_face.html"


def _render(name: str, face: CardFace, mini: bool = False) -> SafeString:
    # The line break that ends the template file is no part of the card.
    html = render_to_string(name, {"face": face, "mini": mini})
    return mark_safe(html.replace("\n", ""))


_cached = lru_cache(maxsize=2048)(_render)


@register.simple_tag
def card(face: CardFace, mini: bool = False) -> SafeString:
    """The card ``face`` as ``games/shared/card.html`` draws it (``mini``: its corner alone)."""
    return _render(CARD, face, mini) if settings.DEBUG else _cached(CARD, face, mini)


@register.simple_tag
def card_face(face: CardFace) -> SafeString:
    """What the card ``face`` shows, as ``games/shared/card_face.html`` draws it."""
    return _render(CARD_FACE, face) if settings.DEBUG else _cached(CARD_FACE, face)


@register.filter
def card_backs(backs: range) -> SafeString:
    """One card back for each item of ``backs`` (a seat's hidden cards).

    A loop in the template cost more than the rest of the seat's cards, which
    are drawn again for every viewer whenever a card is played.
    """
    return mark_safe('<span class="card-back"></span>' * len(backs))
