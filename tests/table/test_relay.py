"""Without Redis, daphne relays the worker's events to its own clients (games/table/relay.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer

from games.match import services
from games.match.broadcast import event_message, match_group
from games.match.models import Match
from games.table.relay import RelayingApplication, moved_matches, relay_once
from games.worker import due_turns

TableStarter = Callable[..., services.Outcome]


@pytest.fixture(autouse=True)
def _bots_without_delay(settings: Any) -> None:
    """The worker plays a bot's turn as soon as it is due."""
    settings.BOT_DELAY_SECONDS = 0


@pytest.mark.django_db
def test_only_matches_that_moved_are_announced_and_ended_ones_are_forgotten(
    start_table: TableStarter,
):
    first = start_table(bots=(1, 2, 3, 4)).match
    second = start_table(bots=(1, 2, 3, 4)).match
    moved, seen = moved_matches({})
    assert moved == [(first.pk, 1), (second.pk, 1)]
    assert moved_matches(seen) == ([], seen)
    # The worker, in another process, records the next turn of every match.
    assert due_turns.advance_due() == 2
    moved, seen = moved_matches(seen)
    assert moved == [(first.pk, 2), (second.pk, 2)]
    # A match that ended with one more event is announced once, then forgotten.
    Match.objects.filter(pk=first.pk).update(seq=3, status=Match.Status.FINISHED)
    moved, seen = moved_matches(seen)
    assert moved == [(first.pk, 3)]
    assert seen == {second.pk: 2}
    assert moved_matches(seen) == ([], seen)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_relay_tells_the_match_group_where_the_match_is(
    start_table: TableStarter,
):
    match = (await database_sync_to_async(start_table)(bots=(1, 2, 3, 4))).match
    layer = InMemoryChannelLayer()
    client = await layer.new_channel()
    await layer.group_add(match_group(match.pk), client)
    seen = await relay_once(layer, {match.pk: 1})
    assert seen == {match.pk: 1}
    assert await database_sync_to_async(due_turns.advance_due)() == 1
    seen = await relay_once(layer, seen)
    assert seen == {match.pk: 2}
    message = await asyncio.wait_for(layer.receive(client), timeout=5)
    assert message == event_message(match.pk, 2)


@pytest.mark.asyncio
@pytest.mark.parametrize("enabled", [False, True], ids=["off", "on"])
async def test_the_relay_starts_with_the_first_connection_only_when_enabled(
    settings: Any, enabled: bool
):
    settings.RELAY_WORKER_EVENTS = enabled
    calls: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        calls.append(scope["type"])

    app = RelayingApplication(inner)
    await app({"type": "http"}, None, None)  # type: ignore[arg-type]
    task = app.task
    await app({"type": "websocket"}, None, None)  # type: ignore[arg-type]
    assert calls == ["http", "websocket"]
    assert app.task is task
    assert (task is not None) is enabled
    if task is not None:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
