"""The deployment as shipped: Debian's nginx from deploy/nginx.conf before two daphne processes.

TLS ends at nginx (a self-signed certificate here), the site runs with
DJANGO_HTTPS=1 behind it, and everything goes through the proxy: pages,
log-in, a posted action pushed over a WebSocket of the other process, an
oversized upload that nginx refuses before daphne sees it, the log-in rate
limit, a slow client cut off, and the health page over plain HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import ssl
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import websockets
from websockets.asyncio.client import connect

from stacks.clients import HttpSession, TableWatcher, close_all
from stacks.servers import Stack
from stacks.tables import PASSWORD, start_tables
from tests.realworld.proxy import Nginx, nginx_problem
from tests.support.services import service_missing

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture(scope="module")
def stack(
    postgres_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    problem = nginx_problem()
    if problem:
        service_missing(problem)
    site = Stack(
        postgres_url,
        redis_url,
        Path(tmp_path_factory.mktemp("nginx-stack")),
        servers=2,
        workers=1,
        bot_delay=0.05,
        extra_env={"DJANGO_HTTPS": "1"},
    )
    site.prepare()
    site.start()
    try:
        yield site
    finally:
        site.stop()


def nginx_before(stack: Stack, folder: str) -> Iterator[Nginx]:
    """A running nginx in front of the stack's daphnes, stopped when the fixture ends."""
    nginx = Nginx(stack.workdir / folder, [daphne.port for daphne in stack.daphnes])
    nginx.start_and_wait()
    try:
        yield nginx
    finally:
        nginx.stop()


@pytest.fixture(scope="module")
def proxy(stack: Stack) -> Iterator[Nginx]:
    yield from nginx_before(stack, "nginx")


def browser(proxy: Nginx) -> HttpSession:
    return HttpSession(proxy.url, proxy.ssl_context())


def test_pages_come_through_the_proxy_over_https(proxy: Nginx, stack: Stack):
    page = browser(proxy).get("/accounts/login/")
    assert page.status == 200, page.text[:300]
    # Django believed the proxy's X-Forwarded-Proto: no redirect, HSTS, secure cookies.
    assert "max-age=" in page.headers["strict-transport-security"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert stack.tracebacks() == []


def test_plain_http_is_sent_to_https_but_the_health_page_answers(proxy: Nginx):
    plain = HttpSession(proxy.plain_url)
    response = plain.get("/accounts/login/")
    assert response.status == 301
    assert response.headers["location"].startswith("https://")
    health = plain.get("/health/")
    assert health.status == 200, health.text
    assert '"worker": true' in health.text


@pytest.mark.asyncio
async def test_an_action_is_pushed_through_the_proxy_to_a_websocket(proxy: Nginx, stack: Stack):
    [table] = await asyncio.to_thread(start_tables, stack, 1, (1, 2, 3, 4), prefix="proxied")
    assert table.turn is not None
    await asyncio.to_thread(
        stack.execute,
        "UPDATE games_match SET deadline = now() + interval '1 hour' WHERE id = %s",
        table.match_id,
    )
    actor_name = table.players[table.turn]
    watcher_name = table.players[table.turn % 4 + 1]
    assert actor_name
    assert watcher_name
    actor, watcher_session = browser(proxy), browser(proxy)
    await asyncio.to_thread(actor.log_in, actor_name, PASSWORD)
    await asyncio.to_thread(watcher_session.log_in, watcher_name, PASSWORD)
    # Both sockets reach the process the table's path hashes to; the action
    # is posted to whichever process nginx picks for it.
    watchers = [
        TableWatcher(
            proxy.ws_url,
            table.match_id,
            watcher_session.cookie_header,
            origin=proxy.url,
            ssl_context=proxy.ssl_context(),
        )
        for _ in range(2)
    ]
    try:
        for watcher in watchers:
            await watcher.start()
            assert watcher.frames[0].seq == 1
        response = await asyncio.to_thread(actor.act, table.match_id, {"bid": "pass"}, 1)
        assert response.status == 200, response.text[:300]
        for watcher in watchers:
            frame = await watcher.wait_for_seq(2, timeout=30)
            assert f"<strong>{actor_name}</strong>" in frame.text
    finally:
        await close_all(watchers)
    assert stack.tracebacks() == []


async def knock(proxy: Nginx, path: str) -> None:
    """Open a socket at ``path`` through the proxy, without logging in: refused, and logged."""
    with contextlib.suppress(websockets.InvalidStatus, websockets.ConnectionClosed):
        async with connect(
            proxy.ws_url + path,
            ssl=proxy.ssl_context(),
            additional_headers={"Origin": proxy.url},
            open_timeout=30,
        ) as socket_:
            await socket_.recv()


@pytest.mark.asyncio
async def test_a_tables_sockets_all_go_to_the_same_process(proxy: Nginx, stack: Stack):
    """deploy/nginx.conf hashes a table socket's path: one process serves each table,
    and the tables are spread over both."""
    paths = [f"/ws/match/{700_000 + n}/" for n in range(24)]
    for path in paths:
        for _ in range(3):
            await knock(proxy, path)
    served: dict[str, set[str]] = {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        log = proxy.access_log()
        served = {
            path: set(re.findall(rf'"GET {re.escape(path)} HTTP/1.1" \d+ \d+ upstream=(\S+)', log))
            for path in paths
        }
        if sum(len(re.findall(re.escape(f'"GET {p} '), log)) for p in paths) >= 3 * len(paths):
            break
        await asyncio.sleep(0.2)
    assert all(len(processes) == 1 for processes in served.values()), served
    daphnes = {f"127.0.0.1:{daphne.port}" for daphne in stack.daphnes}
    assert set().union(*served.values()) == daphnes


def test_an_oversized_upload_is_refused_by_nginx(proxy: Nginx, stack: Stack):
    session = browser(proxy)
    session.get("/accounts/login/")
    before = {name: log.count("POST") for name, log in stack.logs().items()}
    body = b"x" * (3 * 1024 * 1024)
    response = session.request(
        "POST",
        "/accounts/login/",
        body=body,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status == 413
    assert "nginx" in response.text
    # Neither daphne process saw it.
    assert {name: log.count("POST") for name, log in stack.logs().items()} == before


@pytest.fixture
def own_proxy(stack: Stack) -> Iterator[Nginx]:
    """An nginx of the test's own in front of the stack, with an empty log-in limit.

    A test that spends the limit would otherwise refuse every later
    test's log-ins, whichever order they run in.
    """
    yield from nginx_before(stack, "nginx-own")


def test_log_in_attempts_are_limited_by_the_proxy(own_proxy: Nginx):
    proxy = own_proxy
    sessions = [browser(proxy) for _ in range(12)]
    for session in sessions:
        session.get("/accounts/login/")

    def attempt(session: HttpSession):
        return session.post("/accounts/login/", {"username": "nobody", "password": "wrong"})

    # Together, as a password-guessing script sends them: more than the burst.
    with ThreadPoolExecutor(len(sessions)) as pool:
        responses = list(pool.map(attempt, sessions))
    assert any(r.status == 200 for r in responses)
    # Refused by nginx itself, before the site's own limits.
    assert any(r.status == 429 and "nginx" in r.text for r in responses)


def test_a_client_that_sends_its_headers_slowly_is_cut_off(proxy: Nginx):
    raw = socket.create_connection(("127.0.0.1", proxy.https_port), timeout=30)
    tls = proxy.ssl_context().wrap_socket(raw, server_hostname="127.0.0.1")
    started = time.monotonic()
    received = b""
    with tls:
        tls.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        tls.settimeout(4)
        while time.monotonic() - started < 30:
            try:
                chunk = tls.recv(4096)
            except TimeoutError:
                # One header line now and then, never the blank line that ends them.
                tls.sendall(b"X-Slow: 1\r\n")
                continue
            except (ssl.SSLError, ConnectionResetError):
                break
            if not chunk:
                break
            received += chunk
        cut_after = time.monotonic() - started
    print(f"slow client cut off after {cut_after:.1f} s")
    assert cut_after < 30, "the proxy never cut the slow client off"
    assert received == b"" or b" 408 " in received.split(b"\r\n", 1)[0]
