"""Invite tokens: taken in once from the link, kept in the session, never in an address or a log.

The link's one request stores the token in the session and redirects to the
same address without it; pages, forms and the table's socket then find it
there. The site's log, the server command's access log and the proxy's
access log write ``invite=`` with the token hidden.
"""

from __future__ import annotations

import io
import logging
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import Client

from baloot_site.asgi import application
from games.match import services
from games.match.invites import SESSION_KEY
from games.match.models import Match, Seat
from stacks.servers import Daphne, free_port
from tests.support.players import client_for
from tests.support.services import service_missing
from tests.support.sockets import Socket

pytestmark = pytest.mark.django_db(transaction=True)

NOT_ASCII = "é-not-a-token-ü"


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


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


def test_an_invite_link_is_taken_once_and_no_address_carries_it_afterwards(players, make_user):
    match = services.create_match(players[1], is_private=True)
    token = match.invite_token
    guest = client_for(make_user("farah"))
    link = guest.get(f"/match/{match.pk}/", {"invite": token})
    assert link.status_code == 302
    assert link["Location"] == f"/match/{match.pk}/"
    assert link["Cache-Control"] == "no-store"
    assert link["Referrer-Policy"] == "no-referrer"
    assert guest.session[SESSION_KEY] == {str(match.pk): token}
    page = guest.get(link["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert token not in html
    assert "invite=" not in html
    assert f'ws-connect="/ws/match/{match.pk}/"' in html
    assert 'name="invite"' not in html
    # The seat's form needs nothing but the seat: the session holds the invite.
    assert guest.post(f"/match/{match.pk}/sit/", {"number": "3"}).status_code == 302
    assert Seat.objects.get(match=match, number=3).user.username == "farah"
    # The socket finds it in the session too.
    assert socket_answer(guest, match)[0] is True
    # A socket of someone else, with the token in its address only, is refused.
    stranger = client_for(make_user("sam"))
    assert socket_answer(stranger, match, f"invite={token}") == (False, 4403)


def test_a_visitor_sent_to_log_in_carries_no_token_in_the_way_back(players):
    match = services.create_match(players[1], is_private=True)
    token = match.invite_token
    visitor = Client()
    response = visitor.get(f"/match/{match.pk}/", {"invite": token}, follow=True)
    for location, _status in response.redirect_chain:
        assert token not in location
        assert "invite" not in location
    assert response.redirect_chain[-1][0] == f"/accounts/login/?next=/match/{match.pk}/"
    assert b"You were invited to a table." in response.content
    assert token.encode() not in response.content


def test_the_match_page_share_link_is_the_only_place_the_token_shows(players, make_user):
    match = services.create_match(players[1], is_private=True)
    token = match.invite_token
    host_page = client_for(players[1]).get(f"/matches/{match.pk}/").content.decode()
    assert f"/matches/{match.pk}/?invite={token}" in host_page
    guest = client_for(make_user("farah"))
    page = guest.get(f"/matches/{match.pk}/", {"invite": token}, follow=True)
    assert page.status_code == 200
    assert token not in page.content.decode()


def console_output(record_args: tuple[str, str]) -> str:
    """What the settings' console handler writes for one record of django.request."""
    # The settings' own handler (pytest adds handlers of its own beside it).
    [handler] = [
        h for h in logging.getLogger("django").handlers if type(h) is logging.StreamHandler
    ]
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        logging.getLogger("django.request").warning(*record_args)
    finally:
        handler.setStream(old)
    return stream.getvalue()


def test_the_site_log_hides_invite_tokens():
    written = console_output(("Bad Request: %s", "/match/5/?invite=SeCrEt-ToKeN_1&x=2"))
    assert "SeCrEt-ToKeN_1" not in written
    assert "/match/5/?invite=[hidden]&x=2" in written
    encoded = console_output(("Forbidden: %s", "/accounts/login/?next=/match/5/%3Finvite%3DSeCrEt"))
    assert "SeCrEt" not in encoded


@pytest.mark.django_db(transaction=False)
def test_the_server_commands_access_log_hides_invite_tokens(tmp_path: Path):
    server = Daphne(
        "serve", dict(os.environ), tmp_path / "serve.log", "tests.support.loop_app:application"
    )
    try:
        server.start_and_wait()
        url = f"{server.url}/match/5/?invite=SeCrEt-ToKeN_2&x=1"
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200
    finally:
        server.stop()
    log = server.log()
    assert '"GET /match/5/?invite=[hidden]&x=1"' in log
    assert "SeCrEt-ToKeN_2" not in log


@pytest.mark.django_db(transaction=False)
def test_the_proxys_access_log_hides_invite_tokens(tmp_path: Path):
    from tests.realworld.proxy import Nginx, nginx_problem

    problem = nginx_problem()
    if problem:
        service_missing(problem)
    # Nothing listens behind it: the proxy answers 502, and logs the request all the same.
    proxy = Nginx(tmp_path / "nginx", [free_port(), free_port()])
    try:
        proxy.start_and_wait()
        for path in ("/match/5/?invite=SeCrEt-ToKeN_3", "/match/5/?x=1&INVITE=SeCrEt-ToKeN_3"):
            with pytest.raises(urllib.error.HTTPError, match="502"):
                urllib.request.urlopen(
                    f"{proxy.url}{path}", timeout=10, context=proxy.ssl_context()
                )
    finally:
        proxy.stop()
    log = proxy.access_log()
    assert log.count('"GET /match/5/?[query hidden] HTTP/1.1" 502') == 2
    assert "SeCrEt" not in log


def test_holding_keeps_the_newest_tokens_only(players):
    from games.match.invites import MAX_HELD, held, hold

    session: dict[str, object] = {}
    for pk in range(1, MAX_HELD + 6):
        hold(session, pk, f"token{pk}")
    assert held(session, MAX_HELD + 5) == f"token{MAX_HELD + 5}"
    assert held(session, 5) == ""
    assert len(session[SESSION_KEY]) == MAX_HELD
    hold(session, 1, NOT_ASCII)
    assert held(session, 1) == ""
