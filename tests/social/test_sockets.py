"""Chat, rematch and the quick-match queue over WebSockets, through the real ASGI application."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from baloot_site.asgi import application
from games.social import chat, queue, rematch
from tests.support.drivers import start_match, started_match
from tests.support.players import create_player
from tests.support.sockets import Socket
from tests.table.live import HOST, ORIGIN, close_all, session_cookie, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

XSS = "<script>alert(1)</script>"


async def connected(match_id: int, user: User) -> WebsocketCommunicator:
    """A table socket past its first picture."""
    socket = await socket_for(match_id, user)
    ok, _ = await socket.connect()
    assert ok
    await socket.receive_from(timeout=5)
    return socket


async def next_chat_frame(socket: WebsocketCommunicator) -> str:
    """The next frame that carries a chat line (table pictures may come in between)."""
    for _ in range(10):
        frame = await socket.receive_from(timeout=5)
        if "chat-line-" in frame:
            return frame
    raise AssertionError("no chat line arrived")


async def test_a_players_line_reaches_players_only_escaped_and_never_a_card(players):
    outcome = await database_sync_to_async(started_match)(players)
    match_id = outcome.match.pk
    watcher = await database_sync_to_async(create_player)("watcher")
    alice, bob = await connected(match_id, players[1]), await connected(match_id, players[2])
    spectator = await connected(match_id, watcher)
    try:
        await database_sync_to_async(chat.post)(players[1], match_id, text=XSS)
        for socket in (alice, bob):
            frame = await next_chat_frame(socket)
            assert 'hx-swap-oob="beforeend:#chat-log"' in frame
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in frame
            assert "<script>" not in frame
            assert "data-card" not in frame
            assert 'id="table"' not in frame
        assert await spectator.receive_nothing(timeout=0.3)
        await database_sync_to_async(chat.post)(watcher, match_id, text="from the rail")
        frame = await next_chat_frame(spectator)
        assert "from the rail" in frame
        assert await alice.receive_nothing(timeout=0.3)
        assert await bob.receive_nothing(timeout=0.3)
    finally:
        await close_all([alice, bob, spectator])


async def test_a_muted_author_is_not_pushed_to_the_viewer_who_muted_them(players):
    outcome = await database_sync_to_async(started_match)(players)
    match_id = outcome.match.pk
    await database_sync_to_async(chat.post)(players[1], match_id, text="before the mute")
    await database_sync_to_async(chat.mute)(players[2], players[1].pk, match_id=match_id)
    bob, carol = await connected(match_id, players[2]), await connected(match_id, players[3])
    try:
        await database_sync_to_async(chat.post)(players[1], match_id, text="hello all")
        assert "hello all" in await next_chat_frame(carol)
        assert await bob.receive_nothing(timeout=0.3)
    finally:
        await close_all([bob, carol])


async def test_a_hidden_message_is_removed_from_open_pages(players):
    outcome = await database_sync_to_async(started_match)(players)
    match_id = outcome.match.pk
    bob = await connected(match_id, players[2])
    try:
        line = await database_sync_to_async(chat.post)(players[1], match_id, text="rude")
        await next_chat_frame(bob)
        await database_sync_to_async(chat.hide)(line)
        frame = await bob.receive_from(timeout=5)
        assert frame == f'<li id="chat-line-{line.pk}" hx-swap-oob="delete"></li>'
    finally:
        await close_all([bob])


async def queue_socket(user: User, query: str = "") -> WebsocketCommunicator:
    cookie = await database_sync_to_async(session_cookie)(user)
    socket = Socket(
        application,
        f"/ws/queue/{'?' + query if query else ''}",
        headers=[HOST, ORIGIN, (b"cookie", cookie)],
    )
    ok, _ = await socket.connect()
    assert ok
    return socket


async def test_the_queue_page_sees_the_queue_grow_and_goes_to_its_table(db):
    people = [await database_sync_to_async(create_player)(f"q{n}") for n in range(4)]
    first = await database_sync_to_async(queue.join)(people[0], mode="classic", play_timer=15)
    socket = await queue_socket(people[0], f"entry={first.pk}")
    try:
        frame = await socket.receive_from(timeout=5)
        assert 'id="queue-status"' in frame
        assert "data-queue-count>1<" in frame
        await database_sync_to_async(queue.join)(people[1], mode="classic", play_timer=15)
        frame = await socket.receive_from(timeout=5)
        assert "data-queue-count>2<" in frame
        for person in people[2:]:
            await database_sync_to_async(queue.join)(person, mode="classic", play_timer=15)
        for _ in range(5):
            frame = await socket.receive_from(timeout=5)
            if "data-go" in frame:
                break
        assert 'data-go="/match/' in frame
    finally:
        await socket.disconnect()


async def test_closing_the_last_queue_page_leaves_the_queue(db):
    person = await database_sync_to_async(create_player)("leaver")
    await database_sync_to_async(queue.join)(person, mode="quick", play_timer=30)
    one, two = await queue_socket(person), await queue_socket(person)
    await one.disconnect()
    status = await database_sync_to_async(queue.status_of)(person)
    assert status.entry is not None
    await two.disconnect()
    status = await database_sync_to_async(queue.status_of)(person)
    assert status.entry is None


async def test_anonymous_queue_sockets_are_refused(db):
    socket = Socket(application, "/ws/queue/", headers=[HOST, ORIGIN])
    ok, code = await socket.connect()
    assert not ok
    assert code == 4401
    await socket.disconnect()


async def next_rematch_frame(socket: WebsocketCommunicator) -> str:
    """The next frame that carries the rematch panel."""
    for _ in range(10):
        frame = await socket.receive_from(timeout=5)
        if 'id="rematch"' in frame:
            return frame
    raise AssertionError("no rematch panel arrived")


async def test_rematch_offers_are_pushed_and_the_new_match_sends_players_there(players):
    player = await database_sync_to_async(start_match)(players, mode="quick")
    finished = await database_sync_to_async(player.finish_match)()
    watcher = await database_sync_to_async(create_player)("watcher")
    alice, bob = await connected(finished.pk, players[1]), await connected(finished.pk, players[2])
    spectator = await connected(finished.pk, watcher)
    try:
        await database_sync_to_async(rematch.accept)(players[1], finished.pk)
        frame = await next_rematch_frame(bob)
        assert 'hx-swap-oob="outerHTML"' in frame
        assert "Waiting for bob, carol, dave" in frame
        assert "Accept the rematch" in frame
        assert "Accept the rematch" not in await next_rematch_frame(alice)
        assert "Accept the rematch" not in await next_rematch_frame(spectator)
        for number in (2, 3, 4):
            offer = await database_sync_to_async(rematch.accept)(players[number], finished.pk)
        new_id = await database_sync_to_async(lambda: offer.new_match_id)()
        assert new_id is not None
        frames = [await next_rematch_frame(socket) for socket in (alice, bob, spectator)]
        while "The rematch has started" not in frames[0]:
            frames = [await next_rematch_frame(socket) for socket in (alice, bob, spectator)]
        assert f'data-go="/match/{new_id}/"' in frames[0]
        assert f'data-go="/match/{new_id}/"' in frames[1]
        assert "data-go" not in frames[2]
        assert f'href="/match/{new_id}/"' in frames[2]
    finally:
        await close_all([alice, bob, spectator])
