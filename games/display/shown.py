"""Things made once and shown in many pictures, put in words once.

The live table keeps each of its parts by the ``repr`` of the values it
shows (``games.table.parts``). A score sheet, a result panel or the bids of
a deal are the same objects in every picture of a match until they change
(``games.table.picture`` makes them once per reading, or keeps them across
readings), and writing them out again for every picture cost more than
drawing most parts. They never change once made, so each works out its
repr the first time it is asked and keeps it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TypeVar

Item = TypeVar("Item")


class Shown(tuple[Item, ...]):
    """A tuple whose repr is worked out once (its items must never change either)."""

    def __repr__(self) -> str:
        found: str | None = self.__dict__.get("_repr")
        if found is None:
            found = self.__dict__["_repr"] = f"Shown{tuple.__repr__(self)}"
        return found


class ShownOnce:
    """For a frozen dataclass (declared with ``repr=False``): its repr, every field
    by name as a dataclass's own, worked out once."""

    def __repr__(self) -> str:
        found: str | None = self.__dict__.get("_repr")
        if found is None:
            values = ", ".join(f"{item.name}={getattr(self, item.name)!r}" for item in fields(self))  # type: ignore[arg-type]
            found = self.__dict__["_repr"] = f"{type(self).__qualname__}({values})"
        return found
