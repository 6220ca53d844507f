"""Telling a table's sockets that its chat or its rematch offer changed.

Messages carry a chat line's number or nothing at all, never text or cards:
each socket reads what its own user may see (``games.social.sockets``).
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def social_group(match_id: int) -> str:
    """The channel-layer group of every socket open on a table, players and spectators."""
    return f"social-{match_id}"


def send_on_commit(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` once the current transaction commits; never raises."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)

    transaction.on_commit(send, robust=True)


def announce_on_commit(match_id: int, message: dict[str, Any]) -> None:
    """Tell the table's sockets about a chat line or a rematch change, after the commit."""
    send_on_commit(social_group(match_id), message)
