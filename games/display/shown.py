"""Things made once and shown in many pictures, put in words once.

The live table keeps each of its parts by the values it shows
(``games.table.parts``), hashed. A score sheet, a result panel or the bids
of a deal are the same objects in every picture of a match until they
change (``games.table.picture`` makes them once per reading, or keeps them
across readings), and hashing every row and line of them again for every
picture cost more than drawing most parts (some hold lists, which cannot be
hashed at all). They never change once made, so each works out its repr the
first time it is asked, keeps it, and is hashed by it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TypeVar

Item = TypeVar("Item")


class Shown(tuple[Item, ...]):
    """A tuple whose repr is worked out once (its items must never change either),
    and hashed by it: its items need not be hashable themselves."""

    def __repr__(self) -> str:
        found: str | None = self.__dict__.get("_repr")
        if found is None:
            found = self.__dict__["_repr"] = f"Shown{tuple.__repr__(self)}"
        return found

    def __hash__(self) -> int:
        return hash(repr(self))


class ShownOnce:
    """For a frozen dataclass (declared with ``repr=False, eq=False``): its repr, every
    field by name as a dataclass's own, worked out once; compared and hashed by it."""

    def __repr__(self) -> str:
        found: str | None = self.__dict__.get("_repr")
        if found is None:
            values = ", ".join(f"{item.name}={getattr(self, item.name)!r}" for item in fields(self))  # type: ignore[arg-type]
            found = self.__dict__["_repr"] = f"{type(self).__qualname__}({values})"
        return found

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))
