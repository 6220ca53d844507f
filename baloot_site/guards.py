"""ASGI guards in front of Django: a body-size limit, and proxy headers from the proxy only.

Both hold without a reverse proxy, which is why they sit here and not only
in ``deploy/nginx.conf``:

- ``BodyLimit`` refuses with 413 a request whose ``Content-Length`` passes
  ``settings.REQUEST_BODY_LIMIT``, before reading any of it, and a request
  without one (chunked) as soon as the bytes read pass the limit. Django
  never sees such a request, so it never buffers or parses it. daphne
  itself reads a whole body before the application runs, and hands it
  over all at once: the site's server command refuses an oversized one
  there, on its ``Content-Length`` before any of it is read
  (``baloot_site.daphne_hooks``), and in production the proxy's
  ``client_max_body_size`` stops it at the door.
- ``TrustedProxy`` lets ``X-Forwarded-Proto`` and ``X-Real-IP`` through only
  from an address in ``settings.TRUSTED_PROXIES`` and drops them from
  anyone else, so a client that reaches daphne directly cannot claim HTTPS
  or another address. From a trusted proxy, ``X-Real-IP`` becomes the
  client's address, which the log-in lockout and the rate limits count by.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation.trans_real import parse_accept_lang_header

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
# Any ASGI application; the ones wrapped here each spell their types differently.
ASGIApp = Callable[..., Awaitable[None]]

# Headers only the proxy may set (lower case, as ASGI carries them).
PROXY_HEADERS = frozenset(
    {b"x-forwarded-proto", b"x-forwarded-for", b"x-forwarded-host", b"x-real-ip"}
)


def header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of header ``name`` (lower case), or None."""
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value)
    return None


def content_length(scope: Scope) -> int | None:
    """The declared body length; -1 when the header is not a number, None when absent."""
    value = header(scope, b"content-length")
    if value is None:
        return None
    text = value.strip()
    return int(text) if text.isdigit() else -1


def scope_language(scope: Scope) -> str:
    """The refusal's language: the language cookie, else Accept-Language, else the default."""
    cookie = header(scope, b"cookie") or b""
    name = settings.LANGUAGE_COOKIE_NAME.encode()
    for part in cookie.split(b";"):
        key, _, value = part.strip().partition(b"=")
        if key == name:
            try:
                return translation.get_supported_language_variant(value.decode())
            except (LookupError, UnicodeDecodeError):
                break
    accepted = (header(scope, b"accept-language") or b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accepted):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def too_large_text(scope: Scope, limit: int) -> str:
    """The 413 answer's text, in the language the request asks for."""
    with translation.override(scope_language(scope)):
        return gettext("This request is too large: the site accepts at most %(size)s.") % {
            "size": filesizeformat(limit)
        }


async def refuse_too_large(scope: Scope, send: Send, limit: int) -> None:
    """Answer 413 with a short translated text, closing the connection."""
    body = too_large_text(scope, limit).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse HTTP requests whose body passes ``settings.REQUEST_BODY_LIMIT`` bytes (413)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = int(settings.REQUEST_BODY_LIMIT)
        declared = content_length(scope)
        if declared is not None and not 0 <= declared <= limit:
            await refuse_too_large(scope, send, limit)
            return
        # Read the body here, at most ``limit`` bytes of it, so that a body
        # without a length (chunked) is refused once it passes the limit.
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > limit:
                await refuse_too_large(scope, send, limit)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            if messages:
                return messages.pop(0)
            return await receive()

        await self.app(scope, replay, send)


class TrustedProxy:
    """Keep proxy headers from ``settings.TRUSTED_PROXIES`` only; read the client's address."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = dict(scope)
            peer = scope.get("client") or (None, None)
            if peer[0] in settings.TRUSTED_PROXIES:
                real_ip = header(scope, b"x-real-ip")
                if real_ip:
                    scope["client"] = (real_ip.decode("latin-1").strip(), 0)
            else:
                scope["headers"] = [
                    (key, value)
                    for key, value in scope.get("headers", ())
                    if key.lower() not in PROXY_HEADERS
                ]
        await self.app(scope, receive, send)
