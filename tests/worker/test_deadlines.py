"""Stored deadlines: 8 s for bidding decisions (D17), the table's timer for cards,
the bot delay for bots and away seats, and none once the match is over."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured

from baloot_site import environment
from games import rules
from games.match import services
from games.match.models import Seat
from tests.support.clock import Clock, deadline_of, reload

pytestmark = pytest.mark.django_db


def seconds_left(match: Any, clock: Clock) -> float:
    return (deadline_of(match) - clock.now).total_seconds()


def test_a_bidding_decision_has_eight_seconds(start_table: Callable[..., Any], clock: Clock):
    outcome = start_table()
    assert outcome.state.phase is rules.Phase.BIDDING
    assert seconds_left(outcome.match, clock) == 8


def test_each_decision_restarts_the_clock(
    start_table: Callable[..., Any], players: dict[int, User], clock: Clock
):
    outcome = start_table(play_timer=30)
    state = outcome.state
    while state.phase is not rules.Phase.PLAYING:
        clock.advance(3)
        seat = state.turn
        # Hokum at the first turn, confirmed; every other decision the cheapest.
        legal = rules.legal_actions(state)
        taking = [a for a in legal if a.get("bid") in ("hokum", "confirm")]
        action = taking[0] if taking else rules.forced_action(state)
        action = {k: v for k, v in action.items() if k != "auto"}
        outcome = services.submit(players[seat], outcome.match, action, outcome.seq)
        state = outcome.state
        expected = 30 if state.phase is rules.Phase.PLAYING else 8
        assert seconds_left(outcome.match, clock) == expected, state.phase


def test_a_bot_to_act_gets_the_bot_delay(
    start_table: Callable[..., Any], clock: Clock, settings: Any
):
    settings.BOT_DELAY_SECONDS = 1.5
    outcome = start_table(bots=(1, 2, 3, 4))
    assert seconds_left(outcome.match, clock) == 1.5


def test_leaving_hands_the_turn_to_the_bot_and_coming_back_takes_it_back(
    start_table: Callable[..., Any], players: dict[int, User], clock: Clock, settings: Any
):
    settings.BOT_DELAY_SECONDS = 1.5
    outcome = start_table()
    seat = outcome.state.turn
    other = seat % 4 + 1
    clock.advance(5)
    services.leave_seat(players[other], outcome.match)
    # Another seat leaving does not touch the running clock.
    assert seconds_left(outcome.match, clock) == 3
    services.leave_seat(players[seat], outcome.match)
    assert Seat.objects.get(match=outcome.match, number=seat).away
    assert seconds_left(outcome.match, clock) == 1.5
    # Coming back reclaims the seat but never buys time on the current turn.
    services.come_back(players[seat], outcome.match)
    assert seconds_left(outcome.match, clock) == 1.5


def test_no_deadline_once_the_match_is_over(start_table: Callable[..., Any], clock: Clock):
    outcome = start_table()
    assert reload(outcome.match).deadline is not None
    services.abort_match(outcome.match)
    assert reload(outcome.match).deadline is None


@pytest.mark.parametrize(
    ("value", "expected"), [("0", 0.0), ("1.5", 1.5), (" 2 ", 2.0), ("0.25", 0.25)]
)
def test_durations_from_the_environment(value: str, expected: float):
    assert environment.seconds({"BOT_DELAY_SECONDS": value}, "BOT_DELAY_SECONDS", 1.0) == expected
    assert environment.seconds({}, "BOT_DELAY_SECONDS", 1.0) == 1.0


@pytest.mark.parametrize("value", ["", "soon", "-1", "nan", "inf"])
def test_a_duration_that_is_not_a_number_of_seconds_is_refused(value: str):
    with pytest.raises(ImproperlyConfigured, match="WORKER_INTERVAL"):
        environment.seconds({"WORKER_INTERVAL": value}, "WORKER_INTERVAL", 0.2)
