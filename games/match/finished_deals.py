"""The one door to a finished deal's every hand: the log folded up to the deal's end.

``finished_deal`` folds a match's stored log through the engine
(``games.match.event_log.apply_event``) and keeps the state after every
action of the deal asked for. A deal that the fold does not find finished is
never returned, whatever number is asked for: the current deal of a running
match, the unfinished last deal of an aborted one, or a deal that does not
exist. The replay (``games.history.replay``) and the worker's analysis
(``games.worker.analysis``) both come through here, so neither can show or
analyse the hands of a deal in progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import rules
from games.match.event_log import apply_event, initial_state
from games.match.models import Event, Match

OVER = frozenset({rules.Phase.ROUND_OVER, rules.Phase.MATCH_OVER})


@dataclass(frozen=True)
class FinishedDeal:
    """A finished deal: its record, its actions and the engine's state at every step.

    ``states[0]`` is the deal just dealt, ``states[k]`` the state after
    ``actions[k - 1]``; the last one is the scored deal.
    """

    number: int
    deal: dict[str, Any]
    actions: tuple[dict[str, Any], ...]
    states: tuple[rules.State, ...]


def finished_deal(match: Match, number: int) -> FinishedDeal | None:
    """Deal ``number`` (from 1) of ``match`` step by step, or None unless it is over.

    Raises LogError if the stored log does not replay.
    """
    if number < 1:
        return None
    deal_seqs = list(
        Event.objects.filter(match=match, kind=Event.Kind.DEAL)
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    if number > len(deal_seqs):
        return None
    events = Event.objects.filter(match=match).order_by("seq")
    if number < len(deal_seqs):
        events = events.filter(seq__lt=deal_seqs[number])
    state = initial_state(match)
    deal: dict[str, Any] = {}
    actions: list[dict[str, Any]] = []
    states: list[rules.State] = []
    for event in events:
        state = apply_event(state, event)
        if event.seq == deal_seqs[number - 1]:
            deal = dict(event.payload["deal"])
            states.append(state)
        elif states and event.kind == Event.Kind.ACTION:
            actions.append(dict(event.payload))
            states.append(state)
    if not states or state.phase not in OVER:
        return None
    return FinishedDeal(number=number, deal=deal, actions=tuple(actions), states=tuple(states))
