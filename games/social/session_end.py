"""Leaving quick match when a player logs out: no table is made for a browser that left.

``games.apps`` connects ``logged_out`` to Django's ``user_logged_out``
signal. The player's waiting entry is cancelled, and every quick-match page
of theirs, in every server process, closes its socket (4401, which the page
does not retry): a page left open on a logged-out browser can no longer be
seated, nor follow the player to a table.
"""

from __future__ import annotations

import contextlib
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.social import queue


def logged_out(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """``user_logged_out``'s receiver: take ``user`` out of the queue, close their queue pages."""
    if user is None or getattr(user, "pk", None) is None:
        return
    with contextlib.suppress(queue.NotInQueue):
        queue.cancel(user)
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(queue.user_group(user.pk), {"type": "session.ended"})
