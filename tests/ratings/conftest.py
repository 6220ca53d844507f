"""Fixtures of the ratings, leaderboard and profile tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.match import services
from games.match.models import Match
from tests.support.drivers import Driver, started_match


@pytest.fixture
def play_match(players: dict[int, User]) -> Callable[..., Match]:
    """``play_match(seed=1, mode="quick", leave=(), **settings)``: a finished match of four people.

    The seats in ``leave`` step away after the first deal and never come back;
    every action is recorded for the seat to act, as the bots and timers do.
    """

    def play(
        seed: int = 1, mode: str = "quick", leave: tuple[int, ...] = (), **settings: Any
    ) -> Match:
        driver = Driver(started_match(players, mode=mode, **settings), seed=seed)
        if leave:
            driver.finish_deal()
            if driver.state.winner is None:
                for number in leave:
                    services.leave_seat(players[number], driver.match)
                driver.reload()
        return driver.finish_match()

    return play
