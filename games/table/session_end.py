"""Closing a player's table sockets when their session ends (log-out, password change).

Every table socket also joins its user's own group; ending a session sends
that group one message, and each socket closes (4401, which the page does
not retry). A page whose session is still valid may open a new socket; one
whose session ended is refused on connecting, so a hand stops reaching a
browser that has logged out.

``games.apps`` connects ``session_ended`` to Django's ``user_logged_out``
and to ``accounts.signals.password_changed``: the accounts pages never call
into games.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def user_group(user_id: int) -> str:
    """The channel group of every table socket ``user_id`` holds."""
    return f"user.{user_id}.tables"


def end_table_sockets(user_id: int) -> None:
    """Close every table socket of ``user_id``, in every server process."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(user_id), {"type": "session.ended"})


def session_ended(sender: Any, user: Any = None, **kwargs: Any) -> None:
    """The receiver of ``user_logged_out`` and ``password_changed``: close ``user``'s tables."""
    if user is not None and getattr(user, "pk", None) is not None:
        end_table_sockets(user.pk)
