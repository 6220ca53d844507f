"""Oversized bodies refused before Django reads them; proxy headers believed from the proxy only."""

from __future__ import annotations

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.asgi import get_asgi_application

from baloot_site.asgi import application
from baloot_site.guards import BodyLimit, TrustedProxy

pytestmark = pytest.mark.django_db(transaction=True)


def http_scope(method: str, path: str, headers: list[tuple[bytes, bytes]], client=None) -> dict:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"localhost"), *headers],
        "client": client or ("127.0.0.1", 40000),
    }


async def response_of(communicator: ApplicationCommunicator) -> tuple[int, bytes]:
    start = await communicator.receive_output(10)
    body = b""
    while True:
        message = await communicator.receive_output(10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    return start["status"], body


class Spy:
    """An inner application that records whether it ran."""

    def __init__(self) -> None:
        self.scopes: list[dict] = []

    async def __call__(self, scope, receive, send) -> None:
        self.scopes.append(scope)
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(len(body)).encode()})


@pytest.mark.asyncio
async def test_a_declared_oversized_body_is_refused_before_any_is_read(settings):
    settings.REQUEST_BODY_LIMIT = 1000
    length = str(200 * 1024 * 1024).encode()
    scope = http_scope(
        "POST", "/matches/import/", [(b"content-length", length), (b"accept-language", b"ar")]
    )
    communicator = ApplicationCommunicator(application, scope)
    # Nothing of the body is sent: the refusal must not wait for it.
    status, body = await response_of(communicator)
    assert status == 413
    assert "1000" in body.decode()
    assert b"too large" not in body  # in Arabic, as the browser asked


@pytest.mark.asyncio
async def test_a_streamed_body_is_refused_once_it_passes_the_limit(settings):
    settings.REQUEST_BODY_LIMIT = 1000
    spy = Spy()
    scope = http_scope("POST", "/act/", [(b"transfer-encoding", b"chunked")])
    communicator = ApplicationCommunicator(BodyLimit(spy), scope)
    for _ in range(3):
        await communicator.send_input(
            {"type": "http.request", "body": b"x" * 400, "more_body": True}
        )
    status, body = await response_of(communicator)
    assert status == 413
    assert b"too large" in body
    assert spy.scopes == []


@pytest.mark.asyncio
async def test_a_body_within_the_limit_reaches_the_application_whole(settings):
    settings.REQUEST_BODY_LIMIT = 1000
    spy = Spy()
    communicator = ApplicationCommunicator(
        BodyLimit(spy), http_scope("POST", "/", [(b"content-length", b"1000")])
    )
    await communicator.send_input({"type": "http.request", "body": b"x" * 600, "more_body": True})
    await communicator.send_input({"type": "http.request", "body": b"x" * 400})
    status, body = await response_of(communicator)
    assert (status, body) == (200, b"1000")


@pytest.mark.asyncio
async def test_a_content_length_that_is_not_a_number_is_refused(settings):
    spy = Spy()
    communicator = ApplicationCommunicator(
        BodyLimit(spy), http_scope("POST", "/", [(b"content-length", b"-5")])
    )
    status, _ = await response_of(communicator)
    assert status == 413
    assert spy.scopes == []


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("peer", "kept"), [(("203.0.113.9", 5555), False), (("127.0.0.1", 5555), True)]
)
async def test_proxy_headers_are_believed_from_the_trusted_proxy_only(peer, kept):
    spy = Spy()
    headers = [(b"x-forwarded-proto", b"https"), (b"x-real-ip", b"198.51.100.20")]
    communicator = ApplicationCommunicator(
        TrustedProxy(spy), http_scope("GET", "/", headers, client=peer)
    )
    await communicator.send_input({"type": "http.request", "body": b""})
    await response_of(communicator)
    [seen] = spy.scopes
    names = {name for name, _ in seen["headers"]}
    if kept:
        assert b"x-forwarded-proto" in names
        assert seen["client"][0] == "198.51.100.20"
    else:
        assert b"x-forwarded-proto" not in names
        assert b"x-real-ip" not in names
        assert seen["client"] == peer


@pytest.mark.asyncio
async def test_a_client_cannot_claim_https_to_the_site(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    scope = http_scope("GET", "/", [(b"x-forwarded-proto", b"https")], client=("203.0.113.9", 1))
    # A fresh handler, whose security middleware reads the settings above.
    site = TrustedProxy(get_asgi_application())
    communicator = ApplicationCommunicator(site, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    status, _ = await response_of(communicator)
    # Not believed: the plain-HTTP request is sent to HTTPS.
    assert status == 301
