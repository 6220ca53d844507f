"""Finding the bot's chosen action among the legal ones."""

from __future__ import annotations

from typing import Any


def pick(legal: list[dict[str, Any]], **fields: Any) -> dict[str, Any] | None:
    """The first legal action holding every one of ``fields``, or None."""
    for action in legal:
        if all(key in action and action[key] == value for key, value in fields.items()):
            return action
    return None


def only(legal: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    """The legal action holding ``fields`` and no other optional key (lock, trump, baloot).

    Raises LookupError when there is none.
    """
    for action in legal:
        if action.keys() - {"seat"} == fields.keys() and all(
            action[key] == value for key, value in fields.items()
        ):
            return action
    raise LookupError(f"no legal action {fields!r}")
