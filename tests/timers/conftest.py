"""Fixtures of the timer and worker tests: a clock the tests move, players, bot tables."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games import services
from games.models import Match

PASSWORD = "a-long-test-passphrase-42"
# A fixed moment: nothing in these tests depends on the real time of day.
START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    """The time ``django.utils.timezone.now`` reports, moved only by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        """Move the clock on by ``seconds``; returns the new time."""
        self.now += timedelta(seconds=seconds)
        return self.now

    def set(self, moment: datetime) -> datetime:
        """Move the clock to ``moment``; returns it."""
        self.now = moment
        return moment


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """A frozen clock: deadlines and events are stamped with its time."""
    frozen = Clock()
    monkeypatch.setattr(timezone, "now", frozen)
    return frozen


@pytest.fixture(autouse=True)
def _timer_settings(settings: Any) -> None:
    """Bots act as soon as it is their turn, and passwords hash fast."""
    settings.BOT_DELAY_SECONDS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def players(db: None) -> dict[int, User]:
    """Four players; seat n is meant for players[n]."""
    return {
        n: User.objects.create_user(username=name, password=PASSWORD)
        for n, name in enumerate(("alice", "bob", "carol", "dave"), 1)
    }


@pytest.fixture
def start_table(players: dict[int, User]) -> Callable[..., services.Outcome]:
    """Starts a table; ``bots`` lists the seats bots take, players sit in the others."""

    def start(bots: tuple[int, ...] = (), **settings: Any) -> services.Outcome:
        owner = players[1]
        match = services.create_match(owner, seat=None if 1 in bots else 1, **settings)
        for number in (1, 2, 3, 4):
            if number in bots:
                services.add_bot(owner, match, number)
            elif number != 1:
                services.take_seat(players[number], match, number)
        return services.start_match(owner, match)

    return start


def reload(match: Match) -> Match:
    """The match as stored now."""
    return Match.objects.get(pk=match.pk)


def deadline_of(match: Match) -> datetime:
    """The match's stored deadline; fails the test when it has none."""
    deadline = reload(match).deadline
    assert deadline is not None, "the match has no deadline"
    return deadline
