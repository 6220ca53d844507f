"""Finished deals, replayed step by step by the rules engine.

``finished_deal`` folds a match's stored log through the engine
(``games.match.event_log.apply_event``: ``rules.start_deal`` for a deal,
``rules.apply`` for an action) and keeps the state after every action of the
deal asked for. Step 0 is the deal just dealt; step N is the state after its
N-th action; the last step is the scored deal.

A deal that the fold does not find finished is never returned, whatever
number is asked for: the current deal of a running match, the unfinished
last deal of an aborted one, or a deal that does not exist. This check
(``games.match.finished_deals``) is the only door to a replay, so no URL can
show the hands of a deal in progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import rules
from games.match import finished_deals
from games.match.models import Event, Match


@dataclass(frozen=True)
class TrickMark:
    """Where a trick of the deal is complete: its number, step and winning seat."""

    number: int
    step: int
    winner: int


@dataclass(frozen=True)
class DealReplay:
    """A finished deal: its record, its actions and the engine's state at every step."""

    number: int
    deal: dict[str, Any]
    actions: tuple[dict[str, Any], ...]
    states: tuple[rules.State, ...]

    @property
    def last_step(self) -> int:
        """The number of the final step, where the deal is scored."""
        return len(self.actions)

    @property
    def deck(self) -> list[str]:
        """The dealt deck, top card first."""
        return list(self.deal["deck"])

    @property
    def result(self) -> rules.RoundResult:
        """The engine's scoring of the deal."""
        return self.states[-1].results[-1]

    def state_at(self, step: int) -> rules.State:
        """The engine's state after ``step`` actions; raises IndexError outside 0..last_step."""
        if not 0 <= step <= self.last_step:
            raise IndexError(step)
        return self.states[step]

    def tricks(self) -> list[TrickMark]:
        """Each played trick with the step that completes it."""
        marks: list[TrickMark] = []
        for step, state in enumerate(self.states):
            if len(state.tricks) > len(marks):
                marks.append(TrickMark(len(state.tricks), step, state.tricks[-1][2]))
        return marks


def deal_count(match: Match) -> int:
    """How many deals were dealt in ``match``, finished or not."""
    return Event.objects.filter(match=match, kind=Event.Kind.DEAL).count()


def finished_deal(match: Match, number: int) -> DealReplay | None:
    """Deal ``number`` (from 1) of ``match`` replayed step by step, or None unless it is over.

    Raises LogError if the stored log does not replay.
    """
    found = finished_deals.finished_deal(match, number)
    if found is None:
        return None
    return DealReplay(
        number=found.number, deal=found.deal, actions=found.actions, states=found.states
    )
