"""Social pushes cost a server per change, not per socket (issue 27, M3): a chat line is read
and drawn once for all of a process's sockets, a rematch POST that changes nothing is not
announced, a pool's announcements are answered together, and idle queue pages cost one
write per tick for the whole process."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.db import connections
from django.test.utils import CaptureQueriesContext
from django.utils.translation import override, pgettext

from baloot_site.asgi import application
from games.social import chat, consumers, queue, rematch
from games.social.broadcast import social_group
from tests.support.drivers import start_match, started_match
from tests.support.players import create_player
from tests.support.sockets import Socket
from tests.table.live import HOST, ORIGIN, close_all, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def table_socket(match_id: int, user: User, language: str = "en") -> WebsocketCommunicator:
    """A table socket past its first picture, its pages in ``language``."""
    cookie = await database_sync_to_async(session_cookie)(user)
    cookie += f"; django_language={language}".encode()
    socket = Socket(
        application, f"/ws/match/{match_id}/", headers=[HOST, ORIGIN, (b"cookie", cookie)]
    )
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=5)
    return socket


async def chat_frame(socket: WebsocketCommunicator) -> str:
    """The next frame that carries a chat line (table pictures may come in between)."""
    for _ in range(10):
        frame = await socket.receive_from(timeout=5)
        if "chat-line-" in frame:
            return frame
    raise AssertionError("no chat line arrived")


@asynccontextmanager
async def database_queries() -> AsyncIterator[CaptureQueriesContext]:
    """The queries of the thread where sockets and services read the database."""
    captured = await database_sync_to_async(lambda: CaptureQueriesContext(connections["default"]))()
    await database_sync_to_async(captured.__enter__)()
    try:
        yield captured
    finally:
        await database_sync_to_async(captured.__exit__)(None, None, None)


async def queries_of_one_line(players: dict[int, User], watchers: int, name: str) -> int:
    """How many queries one spectator's line costs, said among ``watchers`` spectators."""
    outcome = await database_sync_to_async(started_match)(players)
    match_id = outcome.match.pk
    people = [await database_sync_to_async(create_player)(f"{name}{n}") for n in range(watchers)]
    sockets = [await table_socket(match_id, person) for person in people]
    try:
        async with database_queries() as captured:
            await database_sync_to_async(chat.post)(people[0], match_id, text="hello")
            for socket in sockets:
                await chat_frame(socket)
        return len(captured.captured_queries)
    finally:
        await close_all(sockets)


async def test_a_chat_line_costs_as_many_queries_among_ten_sockets_as_among_two(players):
    few = await queries_of_one_line(players, 2, "few")
    many = await queries_of_one_line(players, 10, "many")
    print(f"queries of one chat line: {few} among 2 sockets, {many} among 10")
    assert many == few


async def test_each_reader_gets_the_drawing_of_their_own_language_and_line(players):
    outcome = await database_sync_to_async(started_match)(players)
    match_id = outcome.match.pk
    author = await table_socket(match_id, players[1], "en")
    english = await table_socket(match_id, players[2], "en")
    arabic = await table_socket(match_id, players[3], "ar")
    watcher = await database_sync_to_async(create_player)("rail")
    spectator = await table_socket(match_id, watcher, "ar")
    try:
        await database_sync_to_async(chat.post)(players[1], match_id, phrase="good-luck")
        with override("ar"):
            in_arabic = pgettext("quick chat phrase", "Good luck")
        assert in_arabic != "Good luck"
        own, read, translated = (
            await chat_frame(author),
            await chat_frame(english),
            await chat_frame(arabic),
        )
        assert "is-mine" in own
        assert "Report" not in own
        assert "Good luck" in read
        assert "is-mine" not in read
        assert "Report" in read
        assert in_arabic in translated
        # The spectators' room does not read the players'.
        assert await spectator.receive_nothing(timeout=0.3)
    finally:
        await close_all([author, english, arabic, spectator])


async def test_a_muted_author_and_a_chat_switched_off_hide_the_line_from_those_readers(players):
    outcome = await database_sync_to_async(started_match)(players)
    match_id = outcome.match.pk
    # One may mute only someone who wrote in one's room (issue 27, L3).
    await database_sync_to_async(chat.post)(players[1], match_id, text="before the mute")
    await database_sync_to_async(chat.mute)(players[2], players[1].pk, match_id=match_id)
    await database_sync_to_async(chat.set_chat_enabled)(players[3], False)
    sockets = [await table_socket(match_id, players[n]) for n in (2, 3, 4)]
    try:
        await database_sync_to_async(chat.post)(players[1], match_id, text="who reads this")
        assert "who reads this" in await chat_frame(sockets[2])
        assert await sockets[0].receive_nothing(timeout=0.3)
        assert await sockets[1].receive_nothing(timeout=0.1)
    finally:
        await close_all(sockets)


async def test_a_rematch_post_that_changes_nothing_announces_nothing(players):
    player = await database_sync_to_async(start_match)(players, mode="quick")
    finished = await database_sync_to_async(player.finish_match)()
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(social_group(finished.pk), channel)
    try:
        await database_sync_to_async(rematch.accept)(players[1], finished.pk)
        assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "rematch.changed"}
        for _ in range(3):
            await database_sync_to_async(rematch.accept)(players[1], finished.pk)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(layer.receive(channel), 0.5)
        # Another player's acceptance is a change.
        await database_sync_to_async(rematch.accept)(players[2], finished.pk)
        assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "rematch.changed"}
    finally:
        await layer.group_discard(social_group(finished.pk), channel)


async def queue_page(user: User, entry_id: int | None = None) -> WebsocketCommunicator:
    """A connected quick-match page, past its first status."""
    cookie = await database_sync_to_async(session_cookie)(user)
    query = f"?entry={entry_id}" if entry_id else ""
    page = Socket(application, f"/ws/queue/{query}", headers=[HOST, ORIGIN, (b"cookie", cookie)])
    assert (await page.connect())[0]
    assert 'id="queue-status"' in await page.receive_from(timeout=5)
    return page


async def test_a_pools_announcements_close_together_are_answered_together(monkeypatch):
    monkeypatch.setattr(consumers, "POOL_COALESCE_SECONDS", 2.0)
    waiting, restless = [await database_sync_to_async(create_player)(f"pool{n}") for n in (1, 2)]
    first = await database_sync_to_async(queue.join)(waiting, mode="quick", play_timer=10)
    page = await queue_page(waiting, first.pk)
    try:
        # Five announcements to the pool in a moment.
        for _ in range(2):
            await database_sync_to_async(queue.join)(restless, mode="quick", play_timer=10)
            await database_sync_to_async(queue.cancel)(restless)
        await database_sync_to_async(queue.join)(restless, mode="quick", play_timer=10)
        frames = [await page.receive_from(timeout=5)]
        while not await page.receive_nothing(timeout=3.5):
            frames.append(await page.receive_from(timeout=1))
        # The number alone, at most twice: once at once, once for the rest.
        assert 1 <= len(frames) <= 2, frames
        assert all('id="queue-status"' not in frame for frame in frames)
        assert "data-queue-count>2<" in frames[-1]
    finally:
        await page.disconnect()


async def test_idle_queue_pages_are_sent_nothing_and_written_once_a_tick(monkeypatch, settings):
    monkeypatch.setattr(queue, "TICK_SECONDS", 0.2)
    settings.QUEUE_SOCKETS_PER_USER = 6
    person = await database_sync_to_async(create_player)("idle")
    entry = await database_sync_to_async(queue.join)(person, mode="classic", play_timer=30)
    pages = [await queue_page(person, entry.pk) for _ in range(6)]
    try:
        async with database_queries() as captured:
            started = time.monotonic()
            await asyncio.sleep(1.0)
            elapsed = time.monotonic() - started
        for page in pages:
            assert await page.receive_nothing(timeout=0.05)
        writes = [
            query["sql"]
            for query in captured.captured_queries
            if query["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))
        ]
        seen = [sql for sql in writes if sql.startswith('UPDATE "games_queuesocket" SET')]
        ticks = elapsed / queue.TICK_SECONDS
        print(f"{len(pages)} idle pages, {ticks:.0f} ticks: {len(writes)} writes")
        assert seen, "the pages were never marked as still open"
        assert len(seen) <= ticks + 1
        assert len(writes) <= 3 * (ticks + 1)
    finally:
        await close_all(pages)
