"""deploy/nginx.conf bounds the sockets one client address holds open (issue 27, H1).

Debian's nginx runs the shipped file in front of two daphne processes (the
embedded layout on one SQLite file; the limit is nginx's alone), with the
per-address limit lowered so that a test reaches it. Table and quick-match
sockets count together, and one more than the limit is refused with 429
before daphne sees it; closing one lets the next in.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.asyncio.client import ClientConnection, connect

from stacks.clients import HttpSession
from stacks.servers import Stack
from stacks.tables import PASSWORD, create_user
from tests.realworld.proxy import Nginx, nginx_problem
from tests.support.services import service_missing

SHIPPED = "limit_conn baloot_sockets 64;"
LIMIT = 6


class LimitedNginx(Nginx):
    """The shipped configuration with its per-address socket limit lowered to ``LIMIT``."""

    def configuration(self, upstreams: list[int]) -> str:
        text = super().configuration(upstreams)
        # Both socket locations, the tables' and the others', share the one limit.
        assert text.count(SHIPPED) == 2, f"deploy/nginx.conf no longer has {SHIPPED!r} twice"
        return text.replace(SHIPPED, f"limit_conn baloot_sockets {LIMIT};")


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    problem = nginx_problem()
    if problem:
        service_missing(problem)
    workdir = Path(tmp_path_factory.mktemp("nginx-sockets"))
    site = Stack(
        f"sqlite:///{workdir / 'db.sqlite3'}",
        None,
        workdir,
        servers=2,
        workers=0,
        extra_env={"DJANGO_HTTPS": "1"},
    )
    site.prepare()
    site.start()
    nginx = LimitedNginx(workdir / "nginx", [daphne.port for daphne in site.daphnes])
    try:
        nginx.start_and_wait()
        for name in ("near", "far"):
            create_user(site, name)
        yield nginx
    finally:
        nginx.stop()
        site.stop()


def logged_in(proxy: Nginx, name: str) -> str:
    """The Cookie header of ``name``'s session, logged in through the proxy."""
    session = HttpSession(proxy.url, proxy.ssl_context())
    session.log_in(name, PASSWORD)
    return session.cookie_header


async def open_socket(proxy: Nginx, path: str, cookie: str) -> ClientConnection:
    """A socket through the proxy, past the first frame the site sends."""
    socket = await connect(
        proxy.ws_url + path,
        ssl=proxy.ssl_context(),
        additional_headers={"Origin": proxy.url, "Cookie": cookie},
        open_timeout=30,
    )
    await asyncio.wait_for(socket.recv(), 30)
    return socket


async def refused_status(proxy: Nginx, path: str, cookie: str) -> int | None:
    """The HTTP status a socket's handshake was refused with; None when it was let in."""
    try:
        socket = await open_socket(proxy, path, cookie)
    except websockets.InvalidStatus as refusal:
        return refusal.response.status_code
    await socket.close()
    return None


@pytest.mark.asyncio
async def test_one_address_holds_only_so_many_sockets(proxy: Nginx) -> None:
    near, far = logged_in(proxy, "near"), logged_in(proxy, "far")
    held: list[Any] = []
    try:
        for cookie in (near, near, near, far, far, far):
            held.append(await open_socket(proxy, "/ws/queue/", cookie))
        assert len(held) == LIMIT
        # A table socket counts with the others; another account changes nothing.
        assert await refused_status(proxy, "/ws/match/1/", far) == 429
        assert await refused_status(proxy, "/ws/queue/", near) == 429
        await held.pop().close()
        deadline = time.monotonic() + 10
        while True:
            status = await refused_status(proxy, "/ws/queue/", far)
            if status is None or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        assert status is None, "a closed socket did not free its place"
    finally:
        for socket in held:
            with contextlib.suppress(Exception):
                await socket.close()
