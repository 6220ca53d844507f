"""``{% kept_partial "name" value=... %}``: a partial drawn once per set of values.

A part of the live table repeats smaller pieces that earlier pictures showed
already: the cards of a trick seen from the same chair, the cards of a
hand. Rendering them again inside every part that holds them was most of
drawing those parts. This tag renders the partial ``name`` of the template
being rendered with the values it is given alone, keeps the result per set
of values, language and number format (as ``games.table.parts`` keeps whole
parts), and reuses it. The values must be hashable and never change.

While nothing is kept (DEBUG on, or ``keep_pieces`` False in the context, as
a table drawn afresh sets it: ``games.table.parts.drawn``), the partial is
rendered from the whole context with the values on top, as ``{% partial %}``
renders it: ``tests/table/test_parts.py`` compares both ways, so a value the
partial reads but is not given does not go unnoticed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.conf import settings
from django.template import Context
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.table.kept import Kept, Unkeyable

register = template.Library()

# A few pieces per card, chair and language.
KEPT = 4096

_kept: Kept[SafeString] = Kept(KEPT)


def forget() -> None:
    """Drop every kept piece."""
    _kept.clear()


@register.simple_tag(takes_context=True)
def kept_partial(context: Context, name: str, **values: Any) -> SafeString:
    """The partial ``name`` of the template being rendered, drawn from ``values``."""
    being: Any = context.template
    template_name: str = being.origin.template_name
    partial = _partial(template_name, name)
    if settings.DEBUG or context.get("keep_pieces") is False:
        with context.push(values):
            return mark_safe(partial.render(context))

    def make() -> SafeString:
        alone = Context(values, autoescape=context.autoescape, use_l10n=context.use_l10n)
        return mark_safe(partial.render(alone))

    # One flat tuple (the names, then the values), not one per value: see
    # games.table.parts._key.
    key = (
        template_name,
        name,
        get_language(),
        context.use_l10n,
        len(values),
        *values,
        *values.values(),
    )
    try:
        return _kept.get_or_make(key, make)
    except Unkeyable:
        return make()


@lru_cache(maxsize=64)
def _partial(template_name: str, name: str) -> Any:
    found: Any = get_template(f"{template_name}#{name}")
    return found.template
