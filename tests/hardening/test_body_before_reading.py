"""An oversized body is refused before it is read: by the server command, and by the ASGI guard.

daphne reads a whole body before the application runs. The site's server
command (``python -m baloot_site.serve``) answers 413 as soon as the headers
announce a body over DJANGO_MAX_REQUEST_BYTES, and cuts a chunked one off
once it passes the limit; the ASGI guard refuses on the declared length
without asking for a single message of the body.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baloot_site.guards import BodyLimit
from stacks.servers import Daphne

LIMIT = 1000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daphne]:
    env = dict(os.environ, DJANGO_MAX_REQUEST_BYTES=str(LIMIT))
    daphne = Daphne(
        "serve",
        env,
        Path(tmp_path_factory.mktemp("serve")) / "serve.log",
        "tests.support.loop_app:application",
    )
    daphne.start_and_wait()
    try:
        yield daphne
    finally:
        daphne.stop()


def answer(connection: socket.socket, timeout: float = 10) -> bytes:
    """Everything the server sends until it closes the connection (or ``timeout``)."""
    connection.settimeout(timeout)
    received = b""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            chunk = connection.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        received += chunk
    return received


def test_a_declared_huge_body_is_refused_before_any_of_it_is_sent(server: Daphne):
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(
            b"POST /matches/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/octet-stream\r\n"
            b"Content-Length: 209715200\r\nExpect: 100-continue\r\n\r\n"
        )
        started = time.monotonic()
        received = answer(connection)
        elapsed = time.monotonic() - started
    # Answered at once, with no "100 Continue" inviting the body, and the connection closed.
    assert received.startswith(b"HTTP/1.1 413 "), received[:200]
    assert b"100 Continue" not in received
    assert b"too large" in received
    assert elapsed < 5


def test_a_chunked_body_is_cut_off_once_it_passes_the_limit(server: Daphne):
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(
            b"POST /act/ HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        # Two chunks of 800 bytes, and no end: the server must not wait for one.
        connection.sendall(b"320\r\n" + b"x" * 800 + b"\r\n" + b"320\r\n" + b"x" * 800 + b"\r\n")
        received = answer(connection)
    assert received.startswith(b"HTTP/1.1 413 "), received[:200]


def test_a_body_within_the_limit_reaches_the_application(server: Daphne):
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        body = b"x" * LIMIT
        connection.sendall(
            b"POST /act/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        received = answer(connection)
    assert received.startswith(b"HTTP/1.1 200 "), received[:200]
    assert b"uvloop.Loop" in received


@pytest.mark.asyncio
async def test_the_asgi_guard_refuses_on_the_declared_length_without_receiving(settings):
    settings.REQUEST_BODY_LIMIT = LIMIT
    ran: list[str] = []
    receives: list[str] = []
    sent: list[dict[str, Any]] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        ran.append("application")

    async def receive() -> dict[str, Any]:
        receives.append("receive")
        return {"type": "http.request", "body": b"x" * LIMIT, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/act/",
        "headers": [(b"content-length", b"209715200")],
    }
    await BodyLimit(inner)(scope, receive, send)
    assert sent[0]["status"] == 413
    assert receives == []
    assert ran == []
