"""The bot's entry point: one decision per call, from the seat's view alone.

Three levels, bidding, calling and declaring alike: ``easy`` (the
rule-following player), ``normal`` (card play with a memory of the public
history, and the last three tricks counted out exactly on a few deals
fitting that memory) and ``strong`` (a determinized search at every card:
deals guessed from the memory and the bidding, each card played out on
them, ``strong``). ``choose_action`` hands ``decide`` only
``rules.view_for(state, seat)`` and ``rules.public_history(state)``: never
another seat's cards.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from games import rules

from . import normal, strong
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
    if level == "easy" or view["phase"] != "playing":
        # The levels call and declare alike, and bid alike but for the strong
        # bot's boldness: Monte Carlo bidding on quick playouts chose
        # contracts and doubles the play could not carry.
        if level == "strong" and view["phase"] == "bidding":
            return bid(view, boldness=strong.BOLDNESS)
        return _DECIDERS[view["phase"]](view)
    memory = remember(view, history)
    # The same view always draws the same deals: a bot's play can be replayed.
    rng = random.Random(json.dumps([view["seat"], view["hand"], history["plays"]]))
    if level == "normal":
        return normal.play(view, memory, budget_ms, rng)
    return strong.play(view, memory, budget_ms, rng, history)
