"""The bot's entry point: one decision per call, from the seat's view alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import rules

from .bidding import bid
from .cardplay import play
from .declaring import declare
from .doubling import call

View = dict[str, Any]

_DECIDERS: dict[str, Callable[[View], dict[str, Any]]] = {
    "bidding": bid,
    "doubling": call,
    "declaring": declare,
    "playing": play,
}


def choose_action(state: rules.State, seat: int) -> dict[str, Any]:
    """One of ``rules.legal_actions(state)``, chosen from what ``seat`` may see.

    Raises ValueError when it is not ``seat``'s turn.
    """
    if state.turn != seat:
        raise ValueError(f"seat {seat} is not to act")
    return decide(rules.view_for(state, seat))


def decide(view: View) -> dict[str, Any]:
    """The bot's choice among ``view["legal"]`` for the seat whose view it is.

    Raises ValueError when the view offers no action.
    """
    if not view["legal"]:
        raise ValueError("this seat has nothing to decide")
    return _DECIDERS[view["phase"]](view)
