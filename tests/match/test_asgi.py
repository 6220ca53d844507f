"""The ASGI application daphne serves: HTTP through Django, WebSockets origin-checked."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from channels.testing import HttpCommunicator
from django.core.asgi import get_asgi_application
from django.core.management import call_command

from baloot_site.asgi import application
from tests.support.sockets import Socket

pytestmark = pytest.mark.django_db(transaction=True)

HOST = [(b"host", b"localhost")]


@pytest.mark.asyncio
async def test_http_requests_reach_django():
    communicator = HttpCommunicator(application, "GET", "/", headers=HOST)
    response = await communicator.get_response()
    assert response["status"] == 200
    assert b"Baloot Online" in response["body"]


def test_collected_static_files_are_served_by_whitenoise_under_asgi(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    call_command("collectstatic", "--noinput", verbosity=0)
    # A fresh handler, so that whitenoise indexes the files just collected.
    app = get_asgi_application()
    response = async_to_sync(asgi_get)(app, "/static/css/site.css")
    assert response["status"] == 200
    assert b"--felt-800" in response["body"]
    response = async_to_sync(asgi_get)(app, "/static/django_htmx/htmx-2.min.js")
    assert response["status"] == 200


async def asgi_get(app, path: str) -> dict:
    """GET ``path`` from an ASGI app and gather its whole (possibly streamed) response."""
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": HOST,
    }
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(5)
    body = b""
    while True:
        message = await communicator.receive_output(5)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait()
    return {"status": start["status"], "body": body}


@pytest.mark.asyncio
async def test_websockets_from_a_foreign_origin_are_refused():
    communicator = Socket(
        application,
        "/ws/anything/",
        headers=[*HOST, (b"origin", b"https://evil.example")],
    )
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()
