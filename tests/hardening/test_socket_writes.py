"""WebSocket frames leave for their socket as they are sent (baloot_site.socket_writes).

The frames go through Twisted's own buffering here, on a real socket pair:
only the event loop is left out, as it is while a busy server process draws
one picture after another.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet.abstract import FileDescriptor

from baloot_site import socket_writes
from tests.support.processes import in_fresh_interpreter


class Reactor:
    """Who asked to be told when their socket can be written: all this test needs."""

    def __init__(self) -> None:
        self.writers: set[Any] = set()

    def addWriter(self, writer: Any) -> None:
        self.writers.add(writer)

    def removeWriter(self, writer: Any) -> None:
        self.writers.discard(writer)


class Connection(FileDescriptor):
    """A connection of Twisted's over one end of a socket pair."""

    def __init__(self, end: socket.socket, reactor: Any) -> None:
        super().__init__(reactor=reactor)
        self.end = end
        self.connected = 1

    def writeSomeData(self, data: bytes) -> int:
        return self.end.send(data)


class Protocol:
    """Sends a frame the way daphne's protocol does: into its transport's buffer."""

    def __init__(self, transport: Any) -> None:
        self.transport = transport

    def handle_reply(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            self.transport.write(message["text"].encode())


@pytest.fixture
def pair() -> Iterator[tuple[Connection, socket.socket, Reactor]]:
    ours, theirs = socket.socketpair()
    theirs.setblocking(False)
    reactor = Reactor()
    try:
        yield Connection(ours, reactor), theirs, reactor
    finally:
        ours.close()
        theirs.close()


def waiting(end: socket.socket) -> bytes:
    """What has reached ``end`` so far."""
    try:
        return end.recv(65536)
    except BlockingIOError:
        return b""


def test_without_it_a_frame_waits_for_the_event_loop(pair):
    connection, theirs, reactor = pair
    Protocol(connection).handle_reply({"type": "websocket.send", "text": "frame"})
    assert waiting(theirs) == b""
    assert reactor.writers == {connection}


def test_a_frame_sent_is_written_at_once(pair):
    connection, theirs, reactor = pair
    send = socket_writes.writing_at_once(Protocol.handle_reply)
    protocol = Protocol(connection)
    send(protocol, {"type": "websocket.send", "text": "first"})
    assert waiting(theirs) == b"first"
    send(protocol, {"type": "websocket.send", "text": "second"})
    assert waiting(theirs) == b"second"
    # Nothing left for the event loop to write.
    assert reactor.writers == set()


def test_what_the_socket_cannot_take_is_left_to_the_event_loop(pair):
    connection, theirs, reactor = pair
    connection.end.setblocking(False)
    connection.end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    send = socket_writes.writing_at_once(Protocol.handle_reply)
    big = "x" * 1_000_000
    send(Protocol(connection), {"type": "websocket.send", "text": big})
    received = waiting(theirs)
    assert 0 < len(received) < len(big)
    assert reactor.writers == {connection}


@pytest.mark.parametrize("state", ["disconnecting", "disconnected"])
def test_a_closing_or_closed_connection_is_left_to_the_event_loop(pair, state):
    connection, theirs, reactor = pair
    send = socket_writes.writing_at_once(Protocol.handle_reply)
    setattr(connection, state, True)
    send(Protocol(connection), {"type": "websocket.send", "text": "late"})
    assert waiting(theirs) == b""
    assert reactor.writers == {connection}


def test_a_transport_without_its_own_writing_keeps_its_frames_for_the_loop():
    class Encrypted:
        """As a TLS transport: it buffers, and has no doWrite."""

        def __init__(self) -> None:
            self.held: list[bytes] = []

        def write(self, data: bytes) -> None:
            self.held.append(data)

    transport = Encrypted()
    socket_writes.writing_at_once(Protocol.handle_reply)(
        Protocol(transport), {"type": "websocket.send", "text": "frame"}
    )
    assert transport.held == [b"frame"]


def test_the_server_application_writes_frames_at_once() -> None:
    program = (
        "import baloot_site.asgi; from daphne.ws_protocol import WebSocketProtocol;"
        "from baloot_site.socket_writes import MARK, write_frames_at_once;"
        "write_frames_at_once(); reply = WebSocketProtocol.handle_reply;"
        "print(getattr(reply, MARK, False), getattr(reply.__wrapped__, MARK, False))"
    )
    environment = {**os.environ, "DJANGO_DEBUG": "1", "DJANGO_SECRET_KEY": "socket-writes-test"}
    ran = in_fresh_interpreter(program, environment)
    # Wrapped once, however often asked.
    assert ran.stdout.split() == ["True", "False"]
