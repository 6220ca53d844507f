"""The bot's entry point: one decision per call, from the seat's view alone.

Three levels: ``easy`` (the rule-following player), ``normal`` (card play
with a memory of the public history, and the last three tricks counted out
exactly on a few deals fitting that memory), both bidding, calling and
declaring by the heuristics, and ``strong`` (a determinized search at every
card: deals guessed from the memory and the bidding, each card played out
on them, ``strong``; its bids, calls and declarations are the heuristics'
checked on guessed whole deals, ``strong_auction``). ``choose_action``
hands ``decide`` only ``rules.view_for(state, seat)`` and
``rules.public_history(state)``: never another seat's cards.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from games import rules

from . import normal, strong, strong_auction
from .bidding import bid
from .cardplay import play
from .declaring import declare
from .doubling import call
from .memory import remember

View = dict[str, Any]
History = dict[str, Any]

LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"
# Per-decision time budget; the site's setting (BOT_DECISION_MS) defaults to it.
DEFAULT_BUDGET_MS = 300

_DECIDERS: dict[str, Callable[[View], dict[str, Any]]] = {
    "bidding": bid,
    "doubling": call,
    "declaring": declare,
    "playing": play,
}


_STRONG_AUCTION: dict[str, Callable[[View, History, float, random.Random], dict[str, Any]]] = {
    "bidding": strong_auction.bid,
    "doubling": strong_auction.call,
    "declaring": strong_auction.declare,
}


def heuristic(view: View, level: str = DEFAULT_LEVEL) -> dict[str, Any]:
    """The choice the level's heuristics alone make outside card play (the
    strong bot's before its Monte Carlo check); raises ValueError in card play."""
    if view["phase"] == "playing":
        raise ValueError("card play has no heuristic-only choice here")
    if level == "strong" and view["phase"] == "bidding":
        return bid(view, boldness=strong_auction.BOLDNESS)
    return _DECIDERS[view["phase"]](view)


def _rng(view: View, history: History) -> random.Random:
    # The same view always draws the same deals: a bot's choice can be replayed.
    seed = [view["seat"], view["phase"], view["hand"], view["bids"], view["calls"]]
    return random.Random(json.dumps([*seed, history["plays"]]))


def choose_action(
    state: rules.State,
    seat: int,
    level: str = DEFAULT_LEVEL,
    budget_ms: float = DEFAULT_BUDGET_MS,
) -> dict[str, Any]:
    """One of ``rules.legal_actions(state)``, chosen from what ``seat`` may see.

    Raises ValueError when it is not ``seat``'s turn or for an unknown level.
    """
    if state.turn != seat:
        raise ValueError(f"seat {seat} is not to act")
    return decide(
        rules.view_for(state, seat), rules.public_history(state), level=level, budget_ms=budget_ms
    )


def decide(
    view: View,
    history: History | None = None,
    *,
    level: str = DEFAULT_LEVEL,
    budget_ms: float = DEFAULT_BUDGET_MS,
) -> dict[str, Any]:
    """The bot's choice among ``view["legal"]`` for the seat whose view it is,
    ``history`` being ``rules.public_history`` of the same moment.

    Raises ValueError when the view offers no action or for an unknown level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if not view["legal"]:
        raise ValueError("this seat has nothing to decide")
    history = history or {"faceup": None, "plays": []}
    phase = view["phase"]
    if level == "strong" and phase in _STRONG_AUCTION:
        return _STRONG_AUCTION[phase](view, history, budget_ms, _rng(view, history))
    if level == "easy" or phase != "playing":
        return _DECIDERS[phase](view)
    memory = remember(view, history)
    rng = _rng(view, history)
    if level == "normal":
        return normal.play(view, memory, budget_ms, rng)
    return strong.play(view, memory, budget_ms, rng, history)
