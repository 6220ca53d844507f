"""The table's WebSocket through the real ASGI application: who may connect and what each gets."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client

from baloot_site.asgi import application
from games import rules
from games.match import services
from games.match.errors import NotYourTurn
from tests.support.drivers import Driver, seat_everyone
from tests.support.sockets import Socket
from tests.table.live import cards_in, close_all, frame_at, seq_of, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    """One process, one in-memory channel layer, whatever REDIS_URL says."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def started(players):
    return services.start_match(players[1], seat_everyone(players))


async def test_anonymous_sockets_are_refused(started):
    socket = await socket_for(started.match.pk, None)
    connected, code = await socket.connect()
    assert not connected
    assert code == 4401
    await socket.disconnect()


async def test_a_socket_from_another_origin_is_refused(started, players):
    socket = await socket_for(started.match.pk, players[1], origin=b"https://evil.example")
    connected, _ = await socket.connect()
    assert not connected
    await socket.disconnect()


async def test_an_unknown_match_is_refused(players):
    socket = await socket_for(999_999, players[1])
    connected, code = await socket.connect()
    assert not connected
    assert code == 4403
    await socket.disconnect()


async def test_a_private_table_needs_a_seat_or_the_invite(players, make_user):
    match = await database_sync_to_async(services.create_match)(players[1], is_private=True)
    outsider = await database_sync_to_async(make_user)("mallory")
    refused = await socket_for(match.pk, outsider)
    connected, code = await refused.connect()
    assert not connected
    assert code == 4403
    # The socket's address no longer carries the invite: one given there is ignored.
    in_address = await socket_for(match.pk, outsider, query=f"invite={match.invite_token}")
    connected, _ = await in_address.connect()
    assert not connected
    # The session that followed the invite link holds it.
    invited = await database_sync_to_async(invited_socket)(match, outsider)
    connected, _ = await invited.connect()
    try:
        assert connected
        frame = await invited.receive_from(timeout=5)
        assert "Waiting for players" in frame
        assert match.invite_token not in frame
    finally:
        await close_all([refused, in_address, invited])


def invited_socket(match, user) -> Socket:
    """A socket of ``user`` from a session that followed ``match``'s invite link."""
    client = Client()
    client.force_login(user)
    client.get(f"/match/{match.pk}/", {"invite": match.invite_token})
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    headers = [
        (b"host", b"localhost"),
        (b"origin", b"http://localhost"),
        (b"cookie", cookie.encode()),
    ]
    return Socket(application, f"/ws/match/{match.pk}/", headers=headers)


async def test_connecting_sends_the_whole_table_with_its_seq(started, players):
    socket = await socket_for(started.match.pk, players[1])
    connected, _ = await socket.connect()
    try:
        assert connected
        frame = await socket.receive_from(timeout=5)
        assert 'id="table"' in frame
        assert 'hx-swap-oob="morph"' in frame
        assert seq_of(frame) == started.seq
        hand = rules.view_for(started.state, 1)["hand"]
        assert set(hand) <= cards_in(frame)
        await socket.receive_nothing(timeout=0.2)
    finally:
        await socket.disconnect()


async def test_every_event_reaches_every_client_and_a_spectator_sees_no_hand(
    started, players, make_user
):
    watcher = await database_sync_to_async(make_user)("wendy")
    users = [players[1], players[2], watcher]
    sockets = [await socket_for(started.match.pk, user) for user in users]
    try:
        for socket in sockets:
            assert (await socket.connect())[0]
            await frame_at(socket, started.seq)
        driver = Driver(started)
        await database_sync_to_async(driver.step)()
        for socket in sockets:
            (frame,) = await frame_at(socket, driver.outcome.seq)
        spectator_frame = frame
        assert 'class="hand"' not in spectator_frame
        for seat in (1, 2, 3, 4):
            unseen = set(rules.view_for(driver.state, seat)["hand"]) - {
                c["card"] for c in rules.view_for(driver.state, None)["trick"]
            }
            assert not unseen & cards_in(spectator_frame)
    finally:
        await close_all(sockets)


async def test_a_refused_action_pushes_nothing(started, players):
    socket = await socket_for(started.match.pk, players[2])
    try:
        assert (await socket.connect())[0]
        await frame_at(socket, started.seq)
        not_to_act = next(n for n in (1, 2, 3, 4) if n != started.state.turn)
        with pytest.raises(NotYourTurn):
            await database_sync_to_async(services.submit)(
                players[not_to_act], started.match, {"bid": "pass"}, started.seq
            )
        await socket.receive_nothing(timeout=0.3)
    finally:
        await socket.disconnect()


async def test_a_seat_gets_only_its_own_hand(started, players):
    sockets = {n: await socket_for(started.match.pk, players[n]) for n in (1, 2, 3, 4)}
    try:
        for n, socket in sockets.items():
            assert (await socket.connect())[0]
            (frame,) = await frame_at(socket, started.seq)
            mine = set(rules.view_for(started.state, n)["hand"])
            others = set().union(
                *(set(rules.view_for(started.state, o)["hand"]) for o in (1, 2, 3, 4) if o != n)
            )
            shown = cards_in(frame)
            assert mine <= shown
            assert not others & shown
            await socket.receive_nothing(timeout=0.1)
    finally:
        await close_all(sockets.values())


async def test_a_client_reporting_an_old_seq_gets_a_fresh_table(started, players):
    socket = await socket_for(started.match.pk, players[3])
    try:
        assert (await socket.connect())[0]
        await frame_at(socket, started.seq)
        await socket.send_to(text_data=json.dumps({"seq": started.seq}))
        await socket.receive_nothing(timeout=0.3)
        await socket.send_to(text_data=json.dumps({"seq": started.seq - 1}))
        frame = await socket.receive_from(timeout=5)
        assert seq_of(frame) == started.seq
        await socket.send_to(text_data="not json at all")
        await socket.send_to(text_data="x" * 10_000)
        await socket.receive_nothing(timeout=0.3)
    finally:
        await socket.disconnect()


async def test_the_start_of_a_waiting_table_is_pushed(players):
    match = await database_sync_to_async(seat_everyone)(players)
    socket = await socket_for(match.pk, players[2])
    try:
        assert (await socket.connect())[0]
        frame = await socket.receive_from(timeout=5)
        assert seq_of(frame) == 0
        assert "Waiting for players" in frame
        outcome = await database_sync_to_async(services.start_match)(players[1], match)
        (frame,) = await frame_at(socket, outcome.seq)
        assert set(rules.view_for(outcome.state, 2)["hand"]) <= cards_in(frame)
    finally:
        await socket.disconnect()
