"""What the site's WebSocket consumers share: each message dispatched in the event loop.

The table's and the quick-match page's consumers (``games.table.consumers``,
``games.social.consumers``) take ``DirectDispatch``, so no message costs a
trip to a thread.

Channels' ``AsyncConsumer.dispatch`` first awaits ``aclose_old_connections``
before every message: a ``sync_to_async`` call, so a hop to the one
thread that all database work of the process shares, and back. A table
socket handles one message per move, and a busy server holds hundreds of
sockets: the hops queued behind each other's database work, and their
thread handoffs took about a sixth of the server's CPU.

Our consumers touch the database only through ``database_sync_to_async``,
which closes old connections itself before and after each call, in the
thread that holds them: the hop closes nothing they would not close anyway.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DirectDispatch:
    """Mixin for an ``AsyncConsumer``: its handlers are called straight from the event loop."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
