"""WebSocket routes of the games app, mounted by ``baloot_site.asgi``."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.social.consumers import QueueConsumer
from games.table.consumers import TableConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/match/<int:match_id>/", TableConsumer.as_asgi()),
    path("ws/queue/", QueueConsumer.as_asgi()),
]
