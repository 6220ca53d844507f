"""A bounded store of things drawn once and shared by every later picture.

The table's parts (``parts``) and its result panels and score sheets
(``picture``) are each made once per distinct input and reused by every
viewer of every match this process serves. Both keep them here: the least
recently used is dropped first, and the store may be read and written from
the server's threads at once. What is kept is shared, so it is never changed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

Value = TypeVar("Value")

_enabled = True


def enabled() -> bool:
    """False while ``keeping_disabled`` is in force."""
    return _enabled


@contextmanager
def keeping_disabled() -> Iterator[None]:
    """Make everything afresh while inside: no kept part, nothing shared between
    the pictures of one reading (for the tests that compare)."""
    global _enabled
    _enabled = False
    try:
        yield
    finally:
        _enabled = True


class Kept(Generic[Value]):
    """At most ``size`` values by key, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._values: OrderedDict[Hashable, Value] = OrderedDict()

    def get_or_make(self, key: Hashable, make: Callable[[], Value]) -> Value:
        """The value kept for ``key``, or ``make()``, kept for next time."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        # Made outside the lock: two threads may both make it, and either's is right.
        made = make()
        with self._lock:
            self._values[key] = made
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return made

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)
