"""Fixtures of the write-side tests: tables at each stage, and the log check after every call."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import rules
from games.match import services
from games.match.models import Match
from tests.support.drivers import Table
from tests.support.log_check import assert_log_consistent, stored


@pytest.fixture
def check_log() -> Callable[..., rules.State]:
    """The log check to run after every service call."""
    return assert_log_consistent


@pytest.fixture
def unchanged() -> Callable[[Match], Any]:
    """``with unchanged(match): ...`` asserts the block left the match's rows as they were."""

    @contextmanager
    def guard(match: Match) -> Iterator[None]:
        before = stored(match.pk)
        yield
        assert stored(match.pk) == before, "a refused call changed the stored match"

    return guard


@pytest.fixture
def full_table(players: dict[int, User], check_log: Callable[..., rules.State]) -> Match:
    """A waiting Classic table with the four players in seats 1-4."""
    match = services.create_match(players[1])
    check_log(match)
    for number in (2, 3, 4):
        services.take_seat(players[number], match, number)
        check_log(match)
    return match


@pytest.fixture
def started(full_table: Match, players: dict[int, User], check_log: Any) -> services.Outcome:
    """The full table, started: its first deal is dealt."""
    outcome = services.start_match(players[1], full_table)
    check_log(full_table, outcome.state)
    return outcome


@pytest.fixture
def table(started: services.Outcome, players: dict[int, User]) -> Table:
    return Table(started, players)
