"""Fixtures of the history tests: players, and matches played to a chosen point.

Matches are played through ``games.services`` by the seated users, choosing
random legal actions (and, now and then, letting the timer force one), so
the event log is exactly what a real table writes. Seeds and first dealers
come from a fixed generator, so every run plays the same cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import dealing, rules, services
from games.models import Match

PASSWORD = "a-long-test-passphrase-42"


class SeededSecrets:
    """Stands in for ``secrets`` in ``games.dealing``: the same seeds on every run."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def token_hex(self, size: int) -> str:
        return self.rng.randbytes(size).hex()

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)



@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dealing, "secrets", SeededSecrets(5))


@pytest.fixture
def make_user(db: None) -> Callable[[str], User]:
    def make(username: str) -> User:
        return User.objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def players(make_user: Callable[[str], User]) -> dict[int, User]:
    """Four players; seat n is meant for players[n]."""
    return {n: make_user(name) for n, name in enumerate(("alice", "bob", "carol", "dave"), 1)}


class Player:
    """Drives a started match through the services as its four seated users would."""

    def __init__(self, outcome: services.Outcome, players: dict[int, User], seed: int) -> None:
        self.outcome = outcome
        self.players = players
        self.rng = random.Random(seed)

    @property
    def match(self) -> Match:
        return self.outcome.match

    @property
    def state(self) -> rules.State:
        return self.outcome.state

    def act(self) -> None:
        """One random legal action of the seat to act; one in twelve forced by the timer."""
        state = self.state
        seat = state.turn
        assert seat is not None
        if self.rng.random() < 1 / 12:
            forced = rules.forced_action(state)
            self.outcome = services.submit_as_seat(
                self.match, seat, forced, self.outcome.seq, auto=True
            )
            return
        action = self.rng.choice(rules.legal_actions(state))
        self.outcome = services.submit(self.players[seat], self.match, action, self.outcome.seq)

    def finish_deal(self) -> None:
        """Play until the deal in progress is over (the next one is dealt, or the match ends)."""
        deals = len(self.state.results)
        while len(self.state.results) == deals:
            self.act()

    def play_deals(self, count: int) -> None:
        """Finish ``count`` deals, or fewer if the match ends first."""
        for _ in range(count):
            if self.state.phase is rules.Phase.MATCH_OVER:
                return
            self.finish_deal()

    def finish_match(self) -> Match:
        while self.state.phase is not rules.Phase.MATCH_OVER:
            self.act()
        self.match.refresh_from_db()
        return self.match


def start_match(
    players: dict[int, User], *, mode: str = "classic", private: bool = False, seed: int = 1
) -> Player:
    """A started match with players[n] in seat n."""
    match = services.create_match(players[1], mode=mode, is_private=private)
    for number in (2, 3, 4):
        services.take_seat(players[number], match, number, invite_token=match.invite_token)
    return Player(services.start_match(players[1], match), players, seed)


@pytest.fixture
def new_match(players: dict[int, User]) -> Callable[..., Player]:
    """``new_match(mode=..., private=..., seed=...)``: a started match of the four players."""

    def make(**options: Any) -> Player:
        return start_match(players, **options)

    return make


@pytest.fixture
def finished(new_match: Callable[..., Player]) -> Match:
    """A Quick match played to its winner."""
    return new_match(mode="quick", seed=3).finish_match()
