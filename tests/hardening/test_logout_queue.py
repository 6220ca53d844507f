"""Logging out leaves quick match: the entry is cancelled and the queue page's socket closes."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.urls import reverse

from baloot_site.asgi import application
from games.match.models import Seat
from games.social import queue
from games.social.models import QueueEntry
from tests.support.players import client_for, create_player
from tests.support.sockets import Socket
from tests.table.live import HOST, ORIGIN, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    """One process, one in-memory channel layer, whatever REDIS_URL says."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


async def queue_page(user: User, entry: QueueEntry) -> Socket:
    cookie = await database_sync_to_async(session_cookie)(user)
    socket = Socket(
        application, f"/ws/queue/?entry={entry.pk}", headers=[HOST, ORIGIN, (b"cookie", cookie)]
    )
    ok, _ = await socket.connect()
    assert ok
    frame = await socket.receive_from(timeout=5)
    assert "data-queue-count>1<" in frame
    return socket


async def test_logging_out_cancels_the_wait_and_closes_the_queue_page(db):
    person = await database_sync_to_async(create_player)("logs-out")
    entry = await database_sync_to_async(queue.join)(person, mode="classic", play_timer=15)
    socket = await queue_page(person, entry)
    try:
        browser = await sync_to_async(client_for)(person)
        await sync_to_async(browser.post)(reverse("accounts:logout"))
        # The page may first be told the queue changed; then it is closed.
        for _ in range(3):
            closing = await socket.receive_output(timeout=5)
            if closing["type"] != "websocket.send":
                break
            assert "data-go" not in closing["text"]
        assert closing == {"type": "websocket.close", "code": 4401}
        entry = await database_sync_to_async(QueueEntry.objects.get)(pk=entry.pk)
        assert entry.status == QueueEntry.Status.CANCELLED
        # Three more players come: no table is made with the one who left.
        for name in ("a", "b", "c"):
            other = await database_sync_to_async(create_player)(name)
            await database_sync_to_async(queue.join)(other, mode="classic", play_timer=15)
        seated = await database_sync_to_async(Seat.objects.filter(user=person).exists)()
        assert not seated
    finally:
        await socket.disconnect()


async def test_logging_out_when_not_waiting_changes_nothing(db):
    person = await database_sync_to_async(create_player)("not-waiting")
    browser = await sync_to_async(client_for)(person)
    answer = await sync_to_async(browser.post)(reverse("accounts:logout"))
    assert answer.status_code == 302
    assert not await database_sync_to_async(QueueEntry.objects.exists)()
