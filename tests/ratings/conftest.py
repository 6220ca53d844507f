"""Fixtures of the ratings, leaderboard and profile tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.match import services
from games.match.models import Match
from tests.support.drivers import Driver, quick_match


@pytest.fixture(autouse=True)
def _same_four_again(settings: Any) -> None:
    """The same four people may play rated match after rated match here.

    These tests rate one line-up many times over; the rating policy's limits
    on repeated line-ups (``games.ratings.policy``) have tests of their own.
    """
    settings.RATED_REPEAT_HOURS = 0
    settings.RATED_PAIR_DAILY_LIMIT = 10**6


@pytest.fixture
def play_match(players: dict[int, User]) -> Callable[..., Match]:
    """``play_match(seed=1, mode="quick", leave=(), **settings)``: a finished quick match of
    four people, players[n] in seat n.

    The seats in ``leave`` step away after the first deal and never come back;
    every action is recorded for the seat to act, as the bots and timers do.
    """

    def play(
        seed: int = 1, mode: str = "quick", leave: tuple[int, ...] = (), **settings: Any
    ) -> Match:
        driver = Driver(quick_match(players, mode=mode, **settings), seed=seed)
        if leave:
            driver.finish_deal()
            if driver.state.winner is None:
                for number in leave:
                    services.leave_seat(players[number], driver.match)
                driver.reload()
        return driver.finish_match()

    return play
