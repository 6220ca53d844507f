"""WebSocket routes of the games app, mounted by ``baloot_site.asgi``.

The live table's consumer (one socket per table page) is added here; until
then the site has no WebSocket endpoint and every socket is refused.
"""

from __future__ import annotations

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
