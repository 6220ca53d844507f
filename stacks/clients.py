"""Clients of a running server: a browser-like HTTP session and a table WebSocket.

Both speak to the server over real sockets, as a browser does: the HTTP
session keeps its cookies and sends Django's CSRF token with every POST; the
WebSocket sends the session cookie and an Origin the server accepts, records
every frame it receives with the event number it shows, and — like the
page's own script — reconnects when the server goes away.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import http.client
import json
import re
import ssl
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode, urlsplit

import websockets
from websockets.asyncio.client import connect

SEQ = re.compile(r'data-seq="(\d+)"')
ACTION_BUTTON = re.compile(r'name="action" value="([^"]*)"')
MATCH_URL = re.compile(r"/match/(\d+)/")


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    text: str

    @property
    def seq(self) -> int | None:
        return seq_in(self.text)


def seq_in(text: str) -> int | None:
    """The event number a rendered table carries, if the text holds one."""
    found = SEQ.search(text)
    return int(found.group(1)) if found else None


def action_buttons(text: str) -> list[dict[str, Any]]:
    """The actions the table's buttons would post, decoded from their values."""
    return [json.loads(html.unescape(value)) for value in ACTION_BUTTON.findall(text)]


class HttpSession:
    """One browser's cookies against one or more server processes."""

    def __init__(self, base_url: str, ssl_context: ssl.SSLContext | None = None) -> None:
        self.base_url = base_url
        self.cookies: dict[str, str] = {}
        # For https:// addresses: the context that trusts the server's certificate.
        self.ssl_context = ssl_context

    def on(self, base_url: str) -> HttpSession:
        """The same cookies (the same logged-in session) against another process."""
        twin = HttpSession(base_url, self.ssl_context)
        twin.cookies = self.cookies
        return twin

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        body: bytes | None = None,
        content_type: str = "",
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Response:
        parts = urlsplit(self.base_url)
        sent = dict(headers or {})
        if form is not None:
            body = urlencode(form).encode()
            content_type = "application/x-www-form-urlencoded"
        if content_type:
            sent["Content-Type"] = content_type
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST" and "csrftoken" in self.cookies:
            sent.setdefault("X-CSRFToken", self.cookies["csrftoken"])
            # As a browser does: over HTTPS, Django's CSRF check wants the origin.
            sent.setdefault("Origin", self.base_url)
        connection: http.client.HTTPConnection
        if parts.scheme == "https":
            connection = http.client.HTTPSConnection(
                parts.hostname or "127.0.0.1", parts.port, timeout=timeout, context=self.ssl_context
            )
        else:
            connection = http.client.HTTPConnection(
                parts.hostname or "127.0.0.1", parts.port, timeout=timeout
            )
        try:
            connection.request(method, path, body=body, headers=sent)
            raw = connection.getresponse()
            text = raw.read().decode("utf-8", errors="replace")
            for name, value in raw.getheaders():
                if name.lower() == "set-cookie":
                    cookie: SimpleCookie = SimpleCookie()
                    cookie.load(value)
                    for key, morsel in cookie.items():
                        self.cookies[key] = morsel.value
            return Response(raw.status, {k.lower(): v for k, v in raw.getheaders()}, text)
        finally:
            connection.close()

    def get(self, path: str, **kwargs: Any) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, form: dict[str, str], **kwargs: Any) -> Response:
        if "csrftoken" not in self.cookies:
            self.get("/accounts/login/")
        return self.request("POST", path, form=form, **kwargs)

    def log_in(self, username: str, password: str) -> None:
        """Log in through the login form; raises AssertionError if refused."""
        self.get("/accounts/login/")
        response = self.post("/accounts/login/", {"username": username, "password": password})
        assert response.status == 302, f"login of {username} refused: {response.status}"
        assert "sessionid" in self.cookies

    def act(
        self, match_id: int, action: dict[str, Any], expected_seq: int, *, htmx: bool = True
    ) -> Response:
        """POST one action to the table's action endpoint, as the table's buttons do."""
        headers = {"HX-Request": "true"} if htmx else {}
        return self.post(
            f"/match/{match_id}/act/",
            {"action": json.dumps(action), "expected_seq": str(expected_seq)},
            headers=headers,
        )

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())


@dataclass
class Frame:
    seq: int
    received: float
    text: str


@dataclass
class TableWatcher:
    """A table page's WebSocket: records frames, reconnects when the server goes away."""

    ws_url: str
    match_id: int
    cookie: str
    origin: str
    keep_text: bool = True
    # For wss:// addresses: the context that trusts the server's certificate.
    ssl_context: ssl.SSLContext | None = None
    frames: list[Frame] = field(default_factory=list)
    connections: int = 0
    closes: list[int | None] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._task: asyncio.Task[None] | None = None
        self._socket: Any = None
        self._changed = asyncio.Event()

    @property
    def last_seq(self) -> int:
        return self.frames[-1].seq if self.frames else -1

    @property
    def max_seq(self) -> int:
        return max((frame.seq for frame in self.frames), default=-1)

    async def start(self) -> None:
        """Connect, and keep reading (and reconnecting) in the background."""
        self._task = asyncio.create_task(self._run())
        await self.wait_for(lambda: self.connections > 0 and bool(self.frames), 30, "connected")

    async def _run(self) -> None:
        url = f"{self.ws_url}/ws/match/{self.match_id}/"
        headers = {"Cookie": self.cookie, "Origin": self.origin}
        tls: dict[str, Any] = {"ssl": self.ssl_context} if self.ssl_context is not None else {}
        while True:
            try:
                async with connect(
                    url, additional_headers=headers, open_timeout=10, **tls
                ) as socket:
                    self._socket = socket
                    self.connections += 1
                    self._changed.set()
                    async for message in socket:
                        text = message if isinstance(message, str) else message.decode()
                        seq = seq_in(text)
                        if seq is None:
                            self.errors.append(f"a frame without an event number: {text[:200]}")
                            continue
                        self.frames.append(Frame(seq, time.time(), text if self.keep_text else ""))
                        self._changed.set()
            except websockets.ConnectionClosed as closed:
                self.closes.append(closed.rcvd.code if closed.rcvd else None)
            except (OSError, websockets.InvalidHandshake, TimeoutError) as error:
                # The server is down or restarting: try again, as the page does.
                self.closes.append(None)
                self.errors.append(f"connect: {error!r}")
            else:
                self.closes.append(socket.close_code)
            finally:
                self._socket = None
            if self.closes and self.closes[-1] in (4401, 4403):
                return
            await asyncio.sleep(0.3)

    async def report(self, seq: int | None = None) -> None:
        """Tell the server which event the page shows, as the page's script does."""
        if self._socket is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self._socket.send(json.dumps({"seq": self.last_seq if seq is None else seq}))

    async def wait_for(self, condition: Any, timeout: float, what: str) -> None:
        """Wait until ``condition()`` holds; raises AssertionError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not condition():
            left = deadline - time.monotonic()
            assert left > 0, f"gave up waiting for {what} (match {self.match_id})"
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.5))

    async def wait_for_seq(self, seq: int, timeout: float = 30) -> Frame:
        """The first frame showing event ``seq`` or later."""
        await self.wait_for(lambda: self.max_seq >= seq, timeout, f"event {seq}")
        return next(frame for frame in self.frames if frame.seq >= seq)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


async def close_all(watchers: list[TableWatcher]) -> None:
    for watcher in watchers:
        await watcher.close()
