"""The pause between deals: a finished deal's result stays on the table for
``ROUND_PAUSE_SECONDS``, then the worker deals the next hand exactly once."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games import rules
from games.match import services
from games.match.event_log import first_inconsistency, load_state
from games.match.models import Event, Match
from games.worker import due_turns
from tests.support.clock import Clock, deadline_of, reload
from tests.support.log_check import assert_log_consistent

pytestmark = pytest.mark.django_db

TableStarter = Callable[..., services.Outcome]


@pytest.fixture(autouse=True)
def _pause(settings: Any) -> None:
    settings.ROUND_PAUSE_SECONDS = 5


def play_to_end_of_deal(match: Match, clock: Clock) -> rules.State:
    """Let the bots play until the deal is over; returns the state then."""
    for _ in range(200):
        state = load_state(reload(match))
        if state.phase in (rules.Phase.ROUND_OVER, rules.Phase.MATCH_OVER):
            return state
        assert due_turns.advance_due(now=clock.set(deadline_of(reload(match)))) == 1
    raise AssertionError("the deal never ended")


def test_the_result_stays_on_the_table_until_the_pause_is_over(
    start_table: TableStarter, clock: Clock
) -> None:
    match = start_table(bots=(1, 2, 3, 4)).match
    state = play_to_end_of_deal(match, clock)
    assert state.phase is rules.Phase.ROUND_OVER
    match = reload(match)
    assert_log_consistent(match, state)
    assert first_inconsistency(match) is None
    assert deadline_of(match) == clock.now + timedelta(seconds=5)
    seq = match.seq

    assert due_turns.advance_due(now=clock.advance(4.9)) == 0
    assert reload(match).seq == seq, "nothing is dealt during the pause"

    assert due_turns.advance_due(now=clock.advance(0.1)) == 1
    match = reload(match)
    assert match.seq == seq + 1
    assert Event.objects.get(match=match, seq=seq + 1).kind == Event.Kind.DEAL
    assert load_state(match).phase is rules.Phase.BIDDING
    assert due_turns.advance_due(now=clock.now) == 0 or reload(match).seq == seq + 2
    assert_log_consistent(match)


def test_a_second_worker_does_not_deal_twice(start_table: TableStarter, clock: Clock) -> None:
    match = start_table(bots=(1, 2, 3, 4)).match
    play_to_end_of_deal(match, clock)
    match = reload(match)
    seq = match.seq
    clock.advance(5)
    assert services.play_due_turn(match.pk, seen_seq=seq, now=clock.now) is not None
    assert services.play_due_turn(match.pk, seen_seq=seq, now=clock.now) is None
    assert Event.objects.filter(match=match, kind=Event.Kind.DEAL).count() == 2


def test_nobody_can_act_during_the_pause(
    start_table: TableStarter, clock: Clock, players: dict[int, Any]
) -> None:
    match = start_table(bots=(2, 3, 4)).match
    state = play_to_end_of_deal(match, clock)
    if state.phase is rules.Phase.MATCH_OVER:
        pytest.fail("the seeded deal should not end the match")
    seq = reload(match).seq
    with pytest.raises(services.ServiceError):
        services.submit(players[1], match, {"seat": 1, "bid": "pass"}, seq)
    with pytest.raises(services.ServiceError):
        services.deal_next(match, seq - 1)
    assert reload(match).seq == seq


def test_the_table_shows_the_result_panel_open_during_the_pause(
    start_table: TableStarter, clock: Clock, players: dict[int, Any]
) -> None:
    match = start_table(bots=(2, 3, 4)).match
    play_to_end_of_deal(match, clock)
    client = Client()
    client.force_login(players[1])
    page = client.get(f"/match/{match.pk}/").content.decode()
    assert re.search(r'<details id="t-result" class="panel result" data-key="\d+-over" open>', page)
