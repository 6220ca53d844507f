"""An ASGI application that answers every HTTP request with the class of the event
loop running it: how a test sees which loop a server process runs on."""

from __future__ import annotations

import asyncio
from typing import Any


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    loop = type(asyncio.get_running_loop())
    body = f"{loop.__module__}.{loop.__qualname__}".encode()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})
