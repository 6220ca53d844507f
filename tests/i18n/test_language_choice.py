"""How a language is chosen: the browser's Accept-Language, the switcher on every page,
and a logged-in player's saved choice, which also reaches the table's WebSocket.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from baloot_site.asgi import application
from tests.support.drivers import started_match
from tests.support.players import client_for
from tests.support.sockets import Socket

pytestmark = pytest.mark.django_db

SWITCHER = re.compile(
    r'<form class="language-switcher" method="post" action="/i18n/setlang/">(.*?)</form>', re.S
)


def html_lang(client: Client, url: str = "/") -> str:
    response = client.get(url)
    assert response.status_code == 200
    found = re.search(r'<html lang="([^"]+)" dir="(rtl|ltr)">', response.content.decode())
    assert found is not None
    return f"{found.group(1)} {found.group(2)}"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ar-SA,ar;q=0.9,en;q=0.5", "ar rtl"),
        ("id-ID,id;q=0.9", "id ltr"),
        ("zh-CN,zh;q=0.9", "zh-hans ltr"),
        ("ko-KR,ko;q=0.8", "ko ltr"),
        ("th", "th ltr"),
        ("fr-FR,fr;q=0.9", "en ltr"),
        ("", "en ltr"),
    ],
)
def test_the_browsers_accept_language_picks_the_language(header: str, expected: str) -> None:
    assert html_lang(client_for(None, header or None)) == expected


def test_every_page_has_the_switcher(players: dict[int, User], make_user: Any) -> None:
    outcome = started_match(players)
    anonymous = Client()
    player = client_for(players[1])
    staff = make_user("sam")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    admin = client_for(staff)
    pages = [
        (anonymous, reverse("home")),
        (anonymous, reverse("accounts:login")),
        (anonymous, reverse("accounts:signup")),
        (player, reverse("play:lobby")),
        (player, reverse("play:table", args=[outcome.match.pk])),
        (player, reverse("games:mine")),
        (player, reverse("games:detail", args=[outcome.match.pk])),
        (player, reverse("accounts:profile")),
        (admin, reverse("admin:index")),
        (admin, reverse("admin:games_match_change", args=[outcome.match.pk])),
    ]
    for client, url in pages:
        body = client.get(url).content.decode()
        form = SWITCHER.search(body)
        assert form is not None, f"no language switcher on {url}"
        assert 'name="csrfmiddlewaretoken"' in form.group(1)
        offered = re.findall(r'<option value="([^"]+)" lang="[^"]+"', form.group(1))
        assert offered == [code for code, _name in settings.LANGUAGES]
        # Each language is offered under its own name.
        assert "العربيّة" in form.group(1)
        assert "ภาษาไทย" in form.group(1)


def test_the_switcher_sets_the_language_cookie_and_goes_back() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(
        "/i18n/setlang/", {"language": "ko"}, HTTP_REFERER="http://testserver/accounts/login/"
    )
    assert response.status_code == 302
    assert response["Location"] == "http://testserver/accounts/login/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ko"
    assert html_lang(client) == "ko ltr"


def test_the_switcher_needs_a_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    assert client.post("/i18n/setlang/", {"language": "ar"}).status_code == 403
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies


def test_a_logged_in_players_choice_is_saved_and_follows_them(players: dict[int, User]) -> None:
    first = client_for(players[1], "en")
    first.post("/i18n/setlang/", {"language": "th"}, HTTP_REFERER="http://testserver/")
    assert Profile.objects.get(user=players[1]).language == "th"
    assert html_lang(first) == "th ltr"
    # Another browser, asking for Arabic, without the cookie: logging in
    # brings the saved language back, and the cookie follows.
    second = Client(HTTP_ACCEPT_LANGUAGE="ar")
    assert html_lang(second) == "ar rtl"
    # Through the log-in form, as a browser does (the lockout needs the request).
    logged_in = second.post(
        reverse("accounts:login"),
        {"username": "alice", "password": "a-long-test-passphrase-42"},
    )
    assert logged_in.status_code == 302
    assert html_lang(second, reverse("play:lobby")) == "th ltr"
    assert second.cookies[settings.LANGUAGE_COOKIE_NAME].value == "th"
    # Choosing again replaces it.
    second.post("/i18n/setlang/", {"language": "ar"}, HTTP_REFERER="http://testserver/")
    assert Profile.objects.get(user=players[1]).language == "ar"
    assert html_lang(first, reverse("play:lobby")) == "th ltr", "an open session keeps its own"
    # Logged out, the browser keeps the cookie of the last choice.
    second.post(reverse("accounts:logout"))
    assert html_lang(second) == "ar rtl"


def test_an_unknown_language_is_not_saved(players: dict[int, User]) -> None:
    client = client_for(players[2], "en")
    response = client.post("/i18n/setlang/", {"language": "xx"}, HTTP_REFERER="http://testserver/")
    assert response.status_code == 302
    assert not Profile.objects.filter(user=players[2]).exists()
    assert html_lang(client) == "en ltr"


def test_an_anonymous_choice_is_not_saved_anywhere(players: dict[int, User]) -> None:
    Client().post("/i18n/setlang/", {"language": "id"}, HTTP_REFERER="http://testserver/")
    assert not Profile.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_tables_pushes_speak_the_players_language(
    players: dict[int, User], settings: object
) -> None:
    settings.CHANNEL_LAYERS = {  # type: ignore[attr-defined]
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    }
    outcome = await database_sync_to_async(started_match)(players)
    seat = outcome.state.turn
    assert seat is not None

    def choose_arabic() -> str:
        client = client_for(players[seat], "en")
        client.post("/i18n/setlang/", {"language": "ar"}, HTTP_REFERER="http://testserver/")
        cookies = client.cookies
        return "; ".join(
            f"{name}={cookies[name].value}"
            for name in (settings.SESSION_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME)  # type: ignore[attr-defined]
        )

    cookie = await database_sync_to_async(choose_arabic)()
    socket = Socket(
        application,
        f"/ws/match/{outcome.match.pk}/",
        headers=[
            (b"host", b"localhost"),
            (b"origin", b"http://localhost"),
            (b"cookie", cookie.encode()),
            (b"accept-language", b"en"),
        ],
    )
    try:
        connected, _ = await socket.connect()
        assert connected
        frame = await socket.receive_from(timeout=5)
        assert "دورك في المزايدة." in frame
        assert "Your turn to bid." not in frame
    finally:
        await socket.disconnect()
