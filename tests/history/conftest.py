"""Fixtures of the history tests: matches played to a chosen point.

Matches are played through ``games.match.services`` by the seated users,
choosing random legal actions (and, now and then, letting the timer force
one), so the event log is exactly what a real table writes
(``tests.support.drivers.Player``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.match.models import Match
from tests.support.deals import seed_deals
from tests.support.drivers import Player, start_match


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_deals(monkeypatch, 5)


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
