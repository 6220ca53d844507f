"""WebSocket frames written to their socket as they are sent, not at the event loop's next turn.

Daphne hands each frame to Twisted, which keeps it until the event loop next
asks the system which sockets can be written: that is, after every callback
already queued has run. A busy server process hears of many moves at once
(their announcements come from the channel layer in one read, each waking
the sockets of its match), and it draws and sends the pictures of all of
them before it asks: every frame of the batch then waited for the last
picture to be drawn, and the next batch grew while it did.

``write_frames_at_once`` makes daphne's WebSocket protocol write what it
holds straight after each message it sends. A socket that cannot take it
all keeps the rest, which Twisted writes when the socket is ready, as it
would have; an error is left for Twisted to find there as well.

What this was measured to change is in docs/performance.md ("Frames
written as they are sent", ``bench/live_bench.py --stack production``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

# Set on daphne's method once it writes at once, so that it is wrapped only once.
MARK = "_writes_at_once"


def write_now(transport: Any) -> None:
    """Write what ``transport`` holds, when it is an open connection of Twisted's own.

    A TLS transport (daphne serving HTTPS itself) has no ``doWrite``: its
    frames go at the loop's next turn, as before.
    """
    do_write = getattr(transport, "doWrite", None)
    if do_write is None or transport.disconnected or transport.disconnecting:
        return
    # What it returns on a lost connection, Twisted finds again when it
    # writes the rest itself, and closes the connection then.
    do_write()


def writing_at_once(handle_reply: Callable[[Any, dict[str, Any]], None]) -> Any:
    """``handle_reply`` of a daphne protocol, followed by writing what it sent."""

    @wraps(handle_reply)
    def handle_reply_and_write(protocol: Any, message: dict[str, Any]) -> None:
        handle_reply(protocol, message)
        if message.get("type") == "websocket.send":
            write_now(protocol.transport)

    setattr(handle_reply_and_write, MARK, True)
    return handle_reply_and_write


def write_frames_at_once() -> None:
    """Make daphne's WebSocket protocol write each frame as it is sent (once per process)."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:
        # Served by another ASGI server: nothing of daphne's to change.
        return
    if not getattr(WebSocketProtocol.handle_reply, MARK, False):
        WebSocketProtocol.handle_reply = writing_at_once(WebSocketProtocol.handle_reply)
