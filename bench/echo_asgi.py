"""The site's ASGI application plus a bare Channels echo consumer, for the live benchmark.

``bench/live_bench.py`` serves this module with daphne so that one process
answers both the site's table sockets and ``/bench/echo/``: the echo's
round trip is the floor that daphne and Channels alone cost, measured under
the same load. Never part of the site's own routing.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from baloot_site.asgi import application as site

ECHO_PATH = "/bench/echo/"


class EchoConsumer(AsyncWebsocketConsumer):
    """Sends every text frame straight back; no channel layer, no database."""

    # An alias with no configured layer: the consumer joins no channel layer.
    channel_layer_alias = "bench-echo-has-no-layer"

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


echo = EchoConsumer.as_asgi()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket" and scope.get("path") == ECHO_PATH:
        await echo(scope, receive, send)
        return
    await site(scope, receive, send)
