"""Table sockets: closed when the session ends, and capped per server process."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games.match import services
from tests.support.drivers import seat_everyone
from tests.support.players import PASSWORD
from tests.table.live import close_all, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def started(players):
    return await database_sync_to_async(
        lambda: services.start_match(players[1], seat_everyone(players))
    )()


# "elsewhere": any log-out (the admin's, say) ends the session, not only the site's page.
@pytest.mark.parametrize("ending", ["logout", "password", "elsewhere"])
async def test_a_socket_closes_when_its_session_ends(players, ending):
    outcome = await started(players)
    socket = await socket_for(outcome.match.pk, players[1])
    try:
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=5)
        browser = Client()
        await sync_to_async(browser.force_login)(players[1])
        if ending == "logout":
            await sync_to_async(browser.post)(reverse("accounts:logout"))
        elif ending == "elsewhere":
            await sync_to_async(browser.logout)()
        else:
            await sync_to_async(browser.post)(
                reverse("accounts:password_change"),
                {
                    "old_password": PASSWORD,
                    "new_password1": "a-brand-new-passphrase-93",
                    "new_password2": "a-brand-new-passphrase-93",
                },
            )
        closing = await socket.receive_output(timeout=5)
        assert closing == {"type": "websocket.close", "code": 4401}
    finally:
        await socket.disconnect()


async def test_sockets_per_server_are_capped(players, make_user, settings):
    settings.TABLE_SOCKETS_PER_SERVER = 3
    outcome = await started(players)
    sockets = [await socket_for(outcome.match.pk, players[n]) for n in (1, 2, 3, 4)]
    try:
        for socket in sockets[:3]:
            assert (await socket.connect())[0]
            await socket.receive_from(timeout=5)
        assert (await sockets[3].connect())[0]
        closing = await sockets[3].receive_output(timeout=5)
        assert closing == {"type": "websocket.close", "code": 4429}
        print(f"socket cap hit at socket {len(sockets)} (TABLE_SOCKETS_PER_SERVER=3)")
    finally:
        await close_all(sockets[:3])
