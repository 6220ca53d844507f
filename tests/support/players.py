"""Players for the in-process tests: one way to make a user, four to fill a table."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

PASSWORD = "a-long-test-passphrase-42"
NAMES = ("alice", "bob", "carol", "dave")


def create_player(username: str) -> User:
    """A user who can log in with ``PASSWORD``."""
    return User.objects.create_user(username=username, password=PASSWORD)


def four_players() -> dict[int, User]:
    """Four players; seat n is meant for players[n]."""
    return {n: create_player(name) for n, name in enumerate(NAMES, 1)}


def client_for(user: User | None, language: str | None = None) -> Client:
    """A browser, logged in as ``user`` when given, whose Accept-Language is ``language``."""
    client = Client(headers={"Accept-Language": language} if language else None)
    if user is not None:
        client.force_login(user)
    return client
