"""Display values whose fields a template finds on its first try.

Django's template engine looks ``a.b`` up as ``a["b"]`` first and as an
attribute only once that failed; for a dataclass the failure is an exception
raised and caught, which cost more than the lookup itself. The live table
reads thousands of fields of cards, buttons and played cards for every move
(``games.table.parts``), so the values it prints answer ``a["b"]`` directly.
"""

from __future__ import annotations

from typing import Any


class Fields:
    """A mixin: ``value[name]`` is ``value.name``; raises KeyError for a name it has not."""

    __slots__ = ()

    def __getitem__(self, name: str) -> Any:
        if type(name) is not str:
            raise KeyError(name)
        try:
            return getattr(self, name)
        except AttributeError:
            raise KeyError(name) from None
