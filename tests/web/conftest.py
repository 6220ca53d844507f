"""Fixtures of the lobby, table and WebSocket tests: players, tables, and a bot driver."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import rules, services
from games.models import Event, Match, Seat

PASSWORD = "a-long-test-passphrase-42"


@pytest.fixture(autouse=True)
def _web_test_settings(settings: Any) -> None:
    """Unhashed static names (no collectstatic before tests) and a fast password hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def make_user(db: None) -> Callable[[str], User]:
    def make(username: str) -> User:
        return User.objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def players(make_user: Callable[[str], User]) -> dict[int, User]:
    """Four players; seat n is meant for players[n]."""
    return {n: make_user(name) for n, name in enumerate(("alice", "bob", "carol", "dave"), 1)}


def seat_everyone(players: dict[int, User], **settings: Any) -> Match:
    """A waiting table with players[n] in seat n."""
    match = services.create_match(players[1], **settings)
    for number in (2, 3, 4):
        services.take_seat(players[number], match, number, invite_token=match.invite_token)
    return match


@pytest.fixture
def running(players: dict[int, User]) -> services.Outcome:
    """A started Classic table of four people: its first deal is dealt."""
    return services.start_match(players[1], seat_everyone(players))


class Driver:
    """Moves a match on through ``services.submit_as_seat``, as the bots and timers do."""

    def __init__(self, outcome: services.Outcome, seed: int = 11) -> None:
        self.outcome = outcome
        self.rng = random.Random(seed)

    @property
    def state(self) -> rules.State:
        return self.outcome.state

    def step(self, choose: Callable[[rules.State], dict[str, Any]] | None = None) -> None:
        """One action for the seat to act: ``choose(state)``, else a random legal one."""
        seat = self.state.turn
        assert seat is not None
        action = choose(self.state) if choose else self.rng.choice(rules.legal_actions(self.state))
        self.outcome = services.submit_as_seat(
            self.outcome.match.pk, seat, action, self.outcome.seq
        )

    def reload(self) -> None:
        """Catch up with actions recorded by someone else (a person's POST)."""
        match = Match.objects.get(pk=self.outcome.match.pk)
        self.outcome = services.Outcome(match, services.load_state(match))

    def until(self, done: Callable[[rules.State], bool], limit: int = 2000) -> None:
        """Random legal actions until ``done(state)``."""
        for _ in range(limit):
            if done(self.state):
                return
            self.step()
        raise AssertionError("the match never reached the wanted position")


def stored(match_id: int) -> tuple[Any, ...]:
    """Everything stored about a match, to show that a refused request changed nothing."""
    return (
        list(Match.objects.filter(pk=match_id).values()),
        list(Seat.objects.filter(match_id=match_id).order_by("number").values()),
        list(Event.objects.filter(match_id=match_id).order_by("seq").values()),
    )
