"""A bounded store of things drawn once and shared by every later picture.

The table's parts (``parts``) and its result panels and score sheets
(``picture``) are each made once per distinct input and reused by every
viewer of every match this process serves. Both keep them here: the least
recently used is dropped first, and the store may be read and written from
the server's threads at once. What is kept is shared, so it is never changed.
A caller that wants a drawing made afresh (the tests that compare) says so
to the drawing itself (``games.table.live.draw(..., keep=False)``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class Unkeyable(TypeError):
    """A key that cannot be hashed."""


class Kept(Generic[Value]):
    """At most ``size`` values by key, the least recently used dropped first.

    Kept in two generations: what was made or asked for lately, and what was
    before. A value found among the recent ones costs one lookup and no lock
    (asked for at every part of every picture, it must cost next to
    nothing); one found among the older ones joins the recent. When the
    recent ones are half the store, they become the older ones and what was
    older is dropped: none of it was asked for since the recent ones were,
    so what is dropped was always used less recently than what is kept.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._recent: dict[Hashable, Value] = {}
        self._older: dict[Hashable, Value] = {}

    def get_or_make(self, key: Hashable, make: Callable[[], Value]) -> Value:
        """The value kept for ``key``, or ``make()``, kept for next time.

        Raises Unkeyable, before making anything, when ``key`` cannot be hashed.
        """
        try:
            found = self._recent.get(key, _MISSING)
        except TypeError as error:
            raise Unkeyable(str(error)) from error
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        with self._lock:
            found = self._older.pop(key, _MISSING)
            if found is not _MISSING:
                self._keep(key, found)  # type: ignore[arg-type]
                return found  # type: ignore[return-value]
        # Made outside the lock: two threads may both make it, and either's is right.
        made = make()
        with self._lock:
            self._keep(key, made)
        return made

    def _keep(self, key: Hashable, value: Value) -> None:
        self._recent[key] = value
        if len(self._recent) >= max(1, self.size // 2):
            self._older = self._recent
            self._recent = {}

    def clear(self) -> None:
        with self._lock:
            self._recent = {}
            self._older = {}

    def __len__(self) -> int:
        return len(self._recent) + len(self._older)


_MISSING = object()
