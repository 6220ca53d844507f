"""Log-in lockout, sign-up limits per address, passwords and look-alike usernames."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.support.players import PASSWORD

pytestmark = pytest.mark.django_db


def wrong_passwords_until_refused(client, url: str, username: str, tries: int) -> int | None:
    """Post wrong passwords; the attempt number first answered with 429, or None."""
    for attempt in range(1, tries + 1):
        response = client.post(url, {"username": username, "password": "not-the-password"})
        if response.status_code == 429:
            return attempt
        assert response.status_code == 200
    return None


def test_wrong_passwords_lock_the_account_out_even_with_the_right_one(client, make_user, settings):
    make_user("target")
    refused_at = wrong_passwords_until_refused(
        client, reverse("accounts:login"), "target", settings.AXES_FAILURE_LIMIT + 5
    )
    print(
        f"lockout: attempt {refused_at} refused (AXES_FAILURE_LIMIT={settings.AXES_FAILURE_LIMIT})"
    )
    assert refused_at == settings.AXES_FAILURE_LIMIT
    response = client.post(reverse("accounts:login"), {"username": "target", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert "Too many failed log-ins" in response.content.decode()


def test_the_lockout_speaks_the_players_language(client, make_user, settings):
    make_user("target")
    client.cookies["django_language"] = "ar"
    wrong_passwords_until_refused(client, reverse("accounts:login"), "target", 20)
    response = client.post(reverse("accounts:login"), {"username": "target", "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed log-ins" not in response.content.decode()


def test_the_admin_log_in_locks_out_too(client, settings):
    User.objects.create_superuser("boss", password=PASSWORD)
    refused_at = wrong_passwords_until_refused(
        client, reverse("admin:login"), "boss", settings.AXES_FAILURE_LIMIT + 5
    )
    assert refused_at == settings.AXES_FAILURE_LIMIT
    response = client.post(reverse("admin:login"), {"username": "boss", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_lockout_does_not_reach_the_same_username_from_another_address(client, make_user):
    make_user("target")
    wrong_passwords_until_refused(client, reverse("accounts:login"), "target", 20)
    response = client.post(
        reverse("accounts:login"),
        {"username": "target", "password": PASSWORD},
        REMOTE_ADDR="198.51.100.7",
    )
    assert response.status_code == 302


def test_sign_ups_from_one_address_are_limited(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "SIGNUP": "3/h"}
    codes = []
    for n in range(4):
        client.logout()
        response = client.post(
            reverse("accounts:signup"),
            {"username": f"newcomer{n}", "password1": PASSWORD, "password2": PASSWORD},
        )
        codes.append(response.status_code)
    assert codes == [302, 302, 302, 429]
    assert User.objects.count() == 3
    assert "too often" in response.content.decode()


def test_log_in_attempts_from_one_address_are_limited(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "LOGIN": "3/m"}
    codes = [
        client.post(
            reverse("accounts:login"), {"username": f"nobody{n}", "password": "x"}
        ).status_code
        for n in range(4)
    ]
    assert codes == [200, 200, 200, 429]


@pytest.mark.parametrize("password", ["baloot123", "Baloot!2024", "abcdefgh1"])
def test_sign_up_refuses_guessable_passwords(client, password):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "zaid", "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert not User.objects.exists()


def test_password_change_refuses_guessable_passwords(client, make_user):
    user = make_user("zaid")
    client.force_login(user)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": "baloot123", "new_password2": "baloot123"},
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


@pytest.mark.parametrize("username", ["\u0430dmin", "p\u0430ypal", "Ahmad\u0430"])
def test_sign_up_refuses_look_alike_usernames(client, username):
    response = client.post(
        reverse("accounts:signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert "alphabets" in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize(
    "username",
    ["admin2", "\u0410\u0445\u043c\u0435\u0434", "\u0623\u062d\u0645\u062f", "\u5f20\u4f1f"],
)
def test_sign_up_accepts_names_in_one_alphabet(client, username):
    response = client.post(
        reverse("accounts:signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert User.objects.filter(username=username).exists()
