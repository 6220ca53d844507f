"""An invite that is not ASCII is refused like any wrong one, on every route that takes one.

``secrets.compare_digest`` raises TypeError for text that is not ASCII: such an
invite gave a 500 on the table, the match page, the chat, a seat and the
socket, for a private table whose link was live, and a 404 where the link was
off, which told one from the other.
"""

from __future__ import annotations

import re

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import Client

from baloot_site.asgi import application
from games.match import services
from games.match.invites import SESSION_KEY
from games.match.models import Match, Seat
from tests.support.players import client_for
from tests.support.sockets import Socket

pytestmark = pytest.mark.django_db(transaction=True)

NOT_ASCII = "é-not-a-token-ü"
# What differs from one answer to the next whatever the match: CSRF tokens, nonces.
VARYING = re.compile(rb'(X-CSRFToken": "|csrfmiddlewaretoken" value="|nonce=")[^"]*')


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def private_tables(owner) -> tuple[Match, Match]:
    """Two private tables: one whose invite link is live, one whose link is off."""
    live = services.create_match(owner, is_private=True)
    off = services.create_match(owner, is_private=True)
    services.reissue_invite(owner, off, on=False)
    return live, off


def holding(user, match: Match, token: str) -> Client:
    """A browser of ``user`` whose session holds ``token`` as ``match``'s invite."""
    client = client_for(user)
    session = client.session
    session[SESSION_KEY] = {str(match.pk): token}
    session.save()
    return client


def answers(client: Client, match: Match) -> list[tuple[int, bytes]]:
    """Status and body of every route that takes an invite, for ``match``."""
    pk = match.pk
    got = [
        client.get(f"/match/{pk}/"),
        client.get(f"/matches/{pk}/"),
        client.post(f"/match/{pk}/chat/", {"text": "hello", "invite": NOT_ASCII}),
        client.post(f"/match/{pk}/sit/", {"number": "2", "invite": NOT_ASCII}),
        client.get(f"/match/{pk}/", {"invite": NOT_ASCII}, follow=True),
        client.get(f"/matches/{pk}/", {"invite": NOT_ASCII}, follow=True),
    ]
    # The match's addresses and each answer's CSRF token and nonce differ; nothing else may.
    return [
        (r.status_code, VARYING.sub(b"#", r.content.replace(f"/{pk}/".encode(), b"/#/")))
        for r in got
    ]


def socket_answer(client: Client, match: Match, query: str = "") -> tuple[bool, object]:
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    headers = [
        (b"host", b"localhost"),
        (b"origin", b"http://localhost"),
        (b"cookie", cookie.encode()),
    ]
    path = f"/ws/match/{match.pk}/" + (f"?{query}" if query else "")

    async def connect() -> tuple[bool, object]:
        socket = Socket(application, path, headers=headers)
        try:
            return await socket.connect()
        finally:
            await socket.disconnect()

    return async_to_sync(connect)()


def test_a_non_ascii_invite_is_refused_on_every_route_alike_for_live_and_dead_links(
    players, make_user
):
    live, off = private_tables(players[1])
    outsider = make_user("mallory")
    with_live = answers(holding(outsider, live, NOT_ASCII), live)
    with_off = answers(holding(outsider, off, NOT_ASCII), off)
    assert [status for status, _body in with_live] == [404] * 6
    assert with_live == with_off
    for match in (live, off):
        browser = holding(outsider, match, NOT_ASCII)
        assert socket_answer(browser, match) == (False, 4403)
        assert socket_answer(browser, match, f"invite={NOT_ASCII}") == (False, 4403)
    assert not Seat.objects.filter(user=outsider).exists()
