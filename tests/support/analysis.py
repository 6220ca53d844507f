"""Bot matches played through the worker's service path, for the deal analysis tests."""

from __future__ import annotations

from typing import Any

from games import rules
from games.match import services
from games.match.event_log import load_state
from games.match.models import Match
from games.worker import due_turns
from tests.support.clock import reload


def bot_match(owner: Any, level: str = "easy") -> Match:
    """A started match of four bots of ``level``, opened by ``owner`` (who does not sit)."""
    match = services.create_match(owner, seat=None)
    for number in (1, 2, 3, 4):
        services.add_bot(owner, match, number, level)
    services.start_match(owner, match)
    return reload(match)


def _step(match: Match) -> None:
    stored = reload(match)
    assert stored.status == Match.Status.PLAYING, "the match is over"
    now = stored.deadline
    assert now is not None
    assert due_turns.advance_due(now=now) == 1


def play_until(match: Match, done: Any, limit: int = 5000) -> rules.State:
    """Due turns until ``done(state)``; returns that state."""
    for _turn in range(limit):
        state = load_state(reload(match))
        if done(state):
            return state
        _step(match)
    raise AssertionError("the match never got there")


def finish_deals(match: Match, count: int) -> rules.State:
    """Due turns until ``count`` deals with cards played are over and the next is dealt."""

    def played(state: rules.State) -> int:
        return sum(1 for r in state.results if r.outcome in ("played", "sawa"))

    return play_until(
        match,
        lambda s: (
            (played(s) >= count and s.phase is rules.Phase.BIDDING and not s.deal_actions)
            or s.phase is rules.Phase.MATCH_OVER
        ),
    )


def cards_on_table(match: Match, cards: int) -> rules.State:
    """Due turns until ``cards`` cards of the current deal are played (a deal in progress)."""
    return play_until(
        match,
        lambda s: s.phase is rules.Phase.PLAYING and len(s.tricks) * 4 + len(s.trick) >= cards,
    )
