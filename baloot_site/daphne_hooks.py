"""What the site's server command changes in daphne: a body over the limit is refused
before it is read, and the access log hides invite tokens.

daphne (through Twisted's HTTP server) reads a request's whole body before
it calls the application, spooling it to a temporary file, then puts all of
it in the application's queue at once: an ASGI guard sees the request only
after that. Without a proxy in front, an oversized anonymous POST grew the
process by its whole size before ``baloot_site.guards.BodyLimit`` could
refuse it (measured in docs/performance.md, ``bench/body_bench.py``).
``BoundedRequest`` answers 413 and closes the connection as soon
as the headers announce a body over ``settings.REQUEST_BODY_LIMIT``, before
a byte of it is read, and a body without a length (chunked) as soon as what
arrived passes the limit. A body within the limit is read as before.
Production still needs the proxy (README, "Running it for real"): it buffers slow
clients, ends TLS and limits connections, which daphne does not.

``InviteHidingAccessLog`` is daphne's access log with the value of every
``invite`` parameter hidden (``baloot_site.log_filters``): an invite link's
one request would otherwise write the token into the log.

``install()`` puts both in place; ``baloot_site.serve`` calls it before
daphne starts.
"""

from __future__ import annotations

from typing import Any

from daphne import access, cli, http_protocol
from django.conf import settings
from django.core.exceptions import AppRegistryNotReady, ImproperlyConfigured

from baloot_site.guards import too_large_text
from baloot_site.log_filters import hide_invites


def body_limit() -> int | None:
    """``settings.REQUEST_BODY_LIMIT``; None when the served application is not the site
    (no Django settings), which then reads every body as daphne does."""
    try:
        return int(settings.REQUEST_BODY_LIMIT)
    except (ImproperlyConfigured, AttributeError):
        return None


class BoundedRequest(http_protocol.WebRequest):
    """daphne's request, refusing a body over the site's limit before reading it."""

    refused = False
    received = 0

    def gotLength(self, length: int | None) -> None:
        limit = body_limit()
        if limit is not None and length is not None and length > limit:
            self._refuse(limit)
            return
        super().gotLength(length)

    def handleContentChunk(self, data: bytes) -> None:
        if self.refused:
            return
        limit = body_limit()
        self.received += len(data)
        if limit is not None and self.received > limit:
            self._refuse(limit)
            return
        super().handleContentChunk(data)

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        # The body of a refused request ends here, never at the application.
        if not self.refused:
            super().requestReceived(command, path, version)

    def _refuse(self, limit: int) -> None:
        """Answer 413 in the asker's language and close the connection, reading no more."""
        self.refused = True
        # No "100 Continue" for a body that will never be read.
        self.requestHeaders.removeHeader(b"expect")
        headers = [
            (name.lower(), value)
            for name, values in self.requestHeaders.getAllRawHeaders()
            for value in values
        ]
        try:
            text = too_large_text({"headers": headers}, limit)
        except AppRegistryNotReady:
            # An application that never set Django up has no catalogs to speak from.
            text = f"This request is too large: the site accepts at most {limit} bytes."
        body = text.encode()
        head = (
            b"HTTP/1.1 413 Payload Too Large\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n"
            b"Connection: close\r\n\r\n"
        )
        transport = self.channel.transport
        transport.write(head + body)
        # Stops reading at once: the rest of the body is never taken in.
        transport.loseConnection()


class InviteHidingAccessLog(access.AccessLogGenerator):
    """daphne's access log, with invite tokens hidden in the addresses it writes."""

    def write_entry(self, host: Any, date: Any, request: str, *args: Any, **kwargs: Any) -> None:
        super().write_entry(host, date, hide_invites(request), *args, **kwargs)


def install() -> None:
    """Make daphne build its requests and its access log from the classes above."""
    http_protocol.WebRequest = BoundedRequest
    cli.AccessLogGenerator = InviteHidingAccessLog
