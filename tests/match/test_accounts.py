"""Sign-up, log-in, log-out, password change and the profile."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.match import services
from games.match.models import Match
from tests.support.players import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-passphrase-77"


def test_signup_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "zaid", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    # Without an invite, a new player lands in the lobby, where "Play now" waits.
    assert response.redirect_chain[-1][0] == f"{reverse('play:lobby')}#play-now-heading"
    assert response.context["user"].username == "zaid"
    assert b"Welcome, zaid!" in response.content
    assert b"Play now" in response.content
    assert User.objects.filter(username="zaid").exists()


def test_an_invite_link_survives_signing_up(client, players):
    match = services.create_match(players[1], is_private=True)
    link = f"{reverse('play:table', args=[match.pk])}?invite={match.invite_token}"
    # The token goes to the session: the way back is the table's own address.
    invited = reverse("play:table", args=[match.pk])
    # Logged out, the invite link asks for a login and keeps the way back...
    login_page = client.get(link, follow=True)
    assert b"You were invited to a table." in login_page.content
    assert match.invite_token.encode() not in login_page.content
    found = re.search(
        rf'href="({re.escape(reverse("accounts:signup"))}\?next=[^"]+)"',
        login_page.content.decode(),
    )
    assert found is not None
    signup_link = html.unescape(found.group(1))
    assert unquote(signup_link.split("?next=", 1)[1]) == invited
    # ...and the new account lands on that table.
    signup_page = client.get(signup_link)
    assert f'name="next" value="{invited}"'.replace("&", "&amp;").encode() in signup_page.content
    response = client.post(
        signup_link,
        {"username": "zaid", "password1": PASSWORD, "password2": PASSWORD, "next": invited},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == invited
    assert response.status_code == 200
    assert b"Sit here" in response.content


def test_signing_up_never_sends_anyone_to_another_site(client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "zaid",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == f"{reverse('play:lobby')}#play-now-heading"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"username": "zaid", "password1": PASSWORD, "password2": "different"},
            "password fields didn",
        ),
        ({"username": "zaid", "password1": "password", "password2": "password"}, "too common"),
        ({"username": "zaid", "password1": "12345678901", "password2": "12345678901"}, "numeric"),
        ({"username": "zaid", "password1": "short", "password2": "short"}, "too short"),
        ({"username": "bad name!", "password1": PASSWORD, "password2": PASSWORD}, "valid username"),
        ({"username": "", "password1": PASSWORD, "password2": PASSWORD}, "required"),
    ],
)
def test_signup_refuses_bad_input_and_creates_nothing(client, data, message):
    response = client.post(reverse("accounts:signup"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()
    assert "_auth_user_id" not in client.session


def test_signup_refuses_a_taken_username(client, make_user):
    make_user("zaid")
    response = client.post(
        reverse("accounts:signup"),
        {"username": "zaid", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert "already exists" in response.content.decode()
    assert User.objects.count() == 1


def test_login_and_logout(client, make_user):
    make_user("zaid")
    response = client.post(
        reverse("accounts:login"), {"username": "zaid", "password": PASSWORD}, follow=True
    )
    assert response.context["user"].is_authenticated
    assert response.redirect_chain[-1][0] == reverse("accounts:profile")

    # Logging out is a POST: a link or an image cannot log anyone out.
    assert client.get(reverse("accounts:logout")).status_code == 405
    response = client.post(reverse("accounts:logout"), follow=True)
    assert not response.context["user"].is_authenticated
    assert b"You have logged out" in response.content


def test_login_refuses_a_wrong_password(client, make_user):
    make_user("zaid")
    response = client.post(reverse("accounts:login"), {"username": "zaid", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_password_change(client, make_user):
    user = make_user("zaid")
    client.force_login(user)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert "Your old password was entered incorrectly" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)

    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert b"Your password has been changed" in response.content
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    # Still logged in after the change.
    assert response.context["user"].is_authenticated


@pytest.mark.parametrize("name", ["accounts:profile", "accounts:password_change"])
def test_private_pages_send_visitors_to_a_friendly_login(client, name):
    response = client.get(reverse(name), follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("accounts:login") + "?next=")
    assert b"Please log in to see that page." in response.content


def test_a_new_profile_is_empty(client, make_user):
    client.force_login(make_user("zaid"))
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 200
    assert (response.context["played"], response.context["won"]) == (0, 0)
    assert b"You have not played any match yet" in response.content


def finish(match: Match, winner: str) -> None:
    """Mark a match finished with ``winner`` (the profile reads only the projection)."""
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, winner=winner)


def test_profile_counts_finished_matches_and_wins_of_the_players_team(client, players):
    alice = players[1]  # seat 1: team A
    won = services.create_match(alice)
    finish(won, "A")
    lost = services.create_match(alice, seat=2)  # seat 2: team B
    finish(lost, "A")
    services.create_match(alice)  # still waiting: not played yet
    imported = services.create_match(alice)
    finish(imported, "A")
    Match.objects.filter(pk=imported.pk).update(imported=True)
    someone_elses = services.create_match(players[2])
    finish(someone_elses, "A")

    client.force_login(alice)
    response = client.get(reverse("accounts:profile"))
    assert (response.context["played"], response.context["won"]) == (2, 1)
    rows = {row.match.pk: row for row in response.context["rows"]}
    assert someone_elses.pk not in rows
    assert (rows[won.pk].won, rows[lost.pk].won) == (True, False)
    html = response.content.decode()
    for match in (won, lost):
        assert f'href="{reverse("games:detail", args=[match.pk])}"' in html


def test_four_colour_suits_are_a_saved_choice_on_the_profile(client, make_user):
    user = make_user("zaid")
    client.force_login(user)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "four-colour" not in page.split("<body", 1)[1].split(">", 1)[0]
    response = client.post(reverse("accounts:card_colours"), {"four_colour": "on"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("accounts:profile")
    body = response.content.decode().split("<body", 1)[1].split(">", 1)[0]
    assert "four-colour" in body
    assert user.profile.four_colour is True
    # A new session remembers it from the profile.
    client.logout()
    client.post(reverse("accounts:login"), {"username": "zaid", "password": PASSWORD})
    body = client.get(reverse("home")).content.decode().split("<body", 1)[1].split(">", 1)[0]
    assert "four-colour" in body
    client.post(reverse("accounts:card_colours"), {})
    body = client.get(reverse("home")).content.decode().split("<body", 1)[1].split(">", 1)[0]
    assert "four-colour" not in body
