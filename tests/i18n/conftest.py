"""Fixtures of the translation tests: compiled catalogs, players and tables in every language.

The catalogs are compiled (``baloot_site.catalogs``) before the first test
here, so these tests also run straight from pytest without ``make``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test import Client
from django.test.signals import setting_changed
from django.utils import translation

from baloot_site.catalogs import catalogs, compile_catalogs
from games import dealing, rules, services
from games.models import Match

PASSWORD = "a-long-test-passphrase-42"
# Every language but English, as settings.LANGUAGES spells them.
LANGUAGES = [code for code, _name in django_settings.LANGUAGES if code != "en"]


class SeededSecrets:
    """Stands in for ``secrets`` in ``games.dealing``: the same deals on every run."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def token_hex(self, size: int) -> str:
        return self.rng.randbytes(size).hex()

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs() -> Iterator[None]:
    """The .mo files, compiled from the committed .po files, and Django's cache reset."""
    compile_catalogs(catalogs())
    # Translations loaded by earlier tests were read before this compile:
    # Django drops its cache when told that the locale paths changed.
    setting_changed.send(
        sender=type(django_settings),
        setting="LOCALE_PATHS",
        value=django_settings.LOCALE_PATHS,
        enter=False,
    )
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dealing, "secrets", SeededSecrets(7))


@pytest.fixture
def make_user(db: None) -> Callable[[str], User]:
    def make(username: str) -> User:
        return User.objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def players(make_user: Callable[[str], User]) -> dict[int, User]:
    """Four players; seat n is meant for players[n]."""
    return {n: make_user(name) for n, name in enumerate(("alice", "bob", "carol", "dave"), 1)}


def client_for(user: User | None, language: str | None = None) -> Client:
    """A browser, logged in as ``user`` when given, whose Accept-Language is ``language``."""
    client = Client(headers={"Accept-Language": language} if language else None)
    if user is not None:
        client.force_login(user)
    return client


def started_match(players: dict[int, User]) -> services.Outcome:
    """A Classic match of four people, its first deal dealt (bidding)."""
    match = services.create_match(players[1])
    for number in (2, 3, 4):
        services.take_seat(players[number], match, number, invite_token=match.invite_token)
    return services.start_match(players[1], match)


def play_until(outcome: services.Outcome, done: Callable[[rules.State], bool]) -> services.Outcome:
    """Legal actions until ``done``, Sun whenever it may be bid, so that deals are played."""
    rng = random.Random(3)
    for _ in range(3000):
        state = outcome.state
        if done(state):
            return outcome
        legal = rules.legal_actions(state)
        sun = [a for a in legal if a.get("bid") == "sun"]
        action = sun[0] if sun else rng.choice(legal)
        assert state.turn is not None
        outcome = services.submit_as_seat(outcome.match.pk, state.turn, action, outcome.seq)
    raise AssertionError("the match never reached the wanted position")


def played_deals(state: rules.State) -> int:
    """How many deals of the match were played to the end (not passed out or redealt)."""
    results = rules.view_for(state, None)["results"]
    return sum(1 for result in results if result["outcome"] in ("played", "sawa"))


@pytest.fixture
def after_one_deal(players: dict[int, User]) -> Match:
    """A running match whose first played deal is over: result panel and score sheet are shown."""
    outcome = play_until(
        started_match(players),
        lambda s: played_deals(s) >= 1 and s.phase is rules.Phase.BIDDING,
    )
    return outcome.match
