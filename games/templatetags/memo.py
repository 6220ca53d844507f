"""``{% memo "name" value ... %}...{% endmemo %}``: a piece of template drawn once per input.

The live table is drawn again for every viewer at every move, yet most of
its parts (the score sheet, the seats, the side panels) are the same as at
the move before. Wrapped in ``memo``, a part is rendered once for each
distinct set of the values the tag names (and the active language), and the
result reused by every later picture of this process, whatever the viewer.

The values must be everything the wrapped template reads: a value it reads
but the tag does not name would leave a stale rendering in place.
``tests/table/test_memo.py`` plays whole matches both ways and compares
every part, so a value forgotten in a tag shows there. Values are compared
by their ``repr``; one that shows an object's address (a lazy translation, a
model instance without a ``__repr__`` of its own) cannot be compared, so its
piece is rendered every time. With DEBUG on nothing is kept, so that an
edited template shows at once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django import template
from django.conf import settings
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Renderings kept per process, the least recently used dropped first: a few
# per seat and panel of every match this process's sockets watch.
KEPT = 20_000

_lock = threading.Lock()
_kept: OrderedDict[tuple[str, str, str], SafeString] = OrderedDict()
_enabled = True


@contextmanager
def memo_disabled() -> Iterator[None]:
    """Render every ``memo`` piece afresh while inside (for the tests that compare)."""
    global _enabled
    _enabled = False
    try:
        yield
    finally:
        _enabled = True


def forget() -> None:
    """Drop every kept rendering."""
    with _lock:
        _kept.clear()


class MemoNode(template.Node):
    def __init__(
        self, name: str, values: list[template.base.FilterExpression], nodelist: Any
    ) -> None:
        self.name = name
        self.values = values
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        if settings.DEBUG or not _enabled:
            return mark_safe(self.nodelist.render(context))
        shown = repr([value.resolve(context) for value in self.values])
        if " at 0x" in shown:
            return mark_safe(self.nodelist.render(context))
        key = (self.name, translation.get_language() or "", shown)
        with _lock:
            found = _kept.get(key)
            if found is not None:
                _kept.move_to_end(key)
                return found
        html = mark_safe(self.nodelist.render(context))
        with _lock:
            _kept[key] = html
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
        return html


@register.tag
def memo(parser: template.base.Parser, token: template.base.Token) -> MemoNode:
    """``{% memo "name" value ... %}``: the enclosed template, rendered once per values."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError("memo needs a quoted name, then the values it reads")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(bits[1][1:-1], [parser.compile_filter(bit) for bit in bits[2:]], nodelist)
