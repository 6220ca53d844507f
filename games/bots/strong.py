"""The ``strong`` bot: determinized double-dummy search and Monte Carlo bidding.

Near the end of a deal (``SEARCH_FROM`` tricks left or fewer) the bot deals
the unseen cards to the other seats many times, each deal consistent with
everything it knows (``memory``, ``sampling``), solves every deal exactly
with ``games.rules.solver`` and plays the card with the best average card
points for its team (``search``). It stops sampling at its time budget;
earlier in the deal, where one exact solve costs about a second, it plays
as ``normal``. Its bids, calls and declarations are the easy bot's unless
another legal action does clearly better on random deals played out
(``rollout``, ``decide_before_play``).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Any

from . import inference, normal, rollout, search
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
        card = search.best_card_by_playout(
            view, memory, cards, preferred, deadline, PLAYOUT_SAMPLES, rng, sampler
        )
    if card is None:
        return fallback
    announced = pick(legal, play=card, baloot=True)
    if announced is not None:
        return announced
    return {"seat": view["seat"], "play": card}


# Before the first card the easy bot's choice stands unless another action
# beats it clearly on the same random deals: by ``MARGIN`` game points plus
# ``Z`` standard errors of the mean difference.
MARGIN = 1.0
Z = 2.0
MIN_DEALS = 8
MAX_DEALS = 400


def decide_before_play(
    view: View,
    history: dict[str, Any],
    budget_ms: float,
    rng: random.Random,
    heuristic: dict[str, Any],
) -> dict[str, Any]:
    """A bid, call or declaration chosen by Monte Carlo evaluation (``rollout``)."""
    start = time.perf_counter()
    candidates = list(view["legal"])
    if len(candidates) < 2 or heuristic.get("redeal") or heuristic not in candidates:
        return heuristic
    deadline = start + budget_ms / 1000 * BUDGET_SHARE
    outcomes = rollout.evaluate(view, history, candidates, deadline, rng, MAX_DEALS)
    base = outcomes[candidates.index(heuristic)]
    deals = len(base)
    if deals < MIN_DEALS:
        return heuristic
    best, best_low = heuristic, 0.0
    for action, values in zip(candidates, outcomes, strict=True):
        if action is heuristic:
            continue
        diffs = [v - b for v, b in zip(values, base, strict=True)]
        mean = statistics.fmean(diffs)
        low = mean - Z * statistics.stdev(diffs) / math.sqrt(deals) - MARGIN
        if low > best_low:
            best, best_low = action, low
    return best
