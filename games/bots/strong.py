"""The ``strong`` bot's card play: a determinized search at every card.

(Its bids, multiplier calls and declarations are the heuristics' checked by
the same kind of search over guessed whole deals: ``strong_auction``.)

The bot deals the unseen cards to the other seats a fixed number of times,
each deal consistent with everything it knows (``memory``, ``sampling``)
and likely given the bids (``inference``). With ``SOLVE_FROM`` cards or
fewer in hand every deal is solved exactly (``games.rules.solver``);
earlier each card is played on every deal and the rest played out quickly
(``playout``, exact for the last tricks). The card with the best mean game
points for its team wins (``search``). The number of deals fixes the work,
so the bot plays alike on a busy machine; the time budget only cuts the
search short in an emergency, and Sawa and the ties follow ``normal``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from . import inference, normal, search
from .choice import pick
from .memory import Memory

View = dict[str, Any]

# From this many cards in hand down, every guessed deal is solved exactly
# (a few milliseconds each); above it each card is played out quickly.
SOLVE_FROM = 3
# Deals per decision: the count caps the work, so the bot plays the same on a
# busy machine; the time budget only stops it in an emergency.
SOLVE_SAMPLES = 40
PLAYOUT_SAMPLES = 48
# Playouts per decision at most (deals times distinct cards): the first
# tricks, with many cards to try, take fewer deals.
PLAYOUTS = 200
# Leave a margin of the budget for building the answer and for the caller.
BUDGET_SHARE = 0.8


def play(
    view: View, memory: Memory, budget_ms: float, rng: random.Random, history: dict[str, Any]
) -> dict[str, Any]:
    """The strong bot's card, or its Sawa claim."""
    start = time.perf_counter()
    fallback = normal.play(view, memory, budget_ms, rng, count=False)
    legal = view["legal"]
    cards = sorted({a["play"] for a in legal if "play" in a})
    if "sawa" in fallback or len(cards) < 2:
        return fallback
    deadline = start + budget_ms / 1000 * BUDGET_SHARE
    faceup = history.get("faceup")
    evidence = inference.read_bids(view, faceup)
    played = inference.played_by(memory)

    def sampler(mem: Memory, r: random.Random) -> dict[int, list[str]] | None:
        return inference.sample(mem, evidence, faceup, r, played)

    preferred = fallback.get("play")
    if len(view["hand"]) <= SOLVE_FROM:
        card = search.best_card(
            view, memory, cards, preferred, deadline, SOLVE_SAMPLES, rng, sampler
        )
    else:
        tried = len(search.distinct(cards, memory, view["contract"]["trump"]))
        samples = max(min(PLAYOUT_SAMPLES, PLAYOUTS // tried), 1)
        card = search.best_card_by_playout(
            view, memory, cards, preferred, deadline, samples, rng, sampler
        )
    if card is None:
        return fallback
    announced = pick(legal, play=card, baloot=True)
    if announced is not None:
        return announced
    return {"seat": view["seat"], "play": card}
