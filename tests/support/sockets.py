"""The WebSocket client of the consumer tests."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

# A table socket is accepted only after its first picture is read and drawn
# (games.table.consumers), and in a busy test run the first drawing in a
# process also compiles the templates. The communicator's own default of 1 s
# was a wall-clock limit in disguise; this one only catches a hung server.
CONNECT_TIMEOUT = 15.0


class Socket(WebsocketCommunicator):
    """A ``WebsocketCommunicator`` that waits for the handshake as long as a hang takes."""

    async def connect(self, timeout: float = CONNECT_TIMEOUT) -> tuple[bool, int | str | None]:
        return await super().connect(timeout)
