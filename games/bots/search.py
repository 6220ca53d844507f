"""Determinized double-dummy search for a card: the core of the bots' end-game play.

The unseen cards are dealt to the other seats many times, each deal
consistent with everything the seat knows (``memory``, ``sampling``); every
deal is solved exactly with ``games.rules.solver`` and the card with the best
total of card points for the seat's team wins.
"""

from __future__ import annotations

import random
import time
from typing import Any

from games.rules import solver
from games.rules.cards import CARD_OF

from .memory import Memory
from .sampling import sample_hands

View = dict[str, Any]


def best_card(
    view: View,
    memory: Memory,
    cards: list[str],
    preferred: str | None,
    deadline: float,
    max_samples: int,
    rng: random.Random,
) -> str | None:
    """The card of ``cards`` with the best total over the sampled deals, ``preferred``
    winning ties; None when no deal was solved before ``deadline``."""
    team = (view["seat"] - 1) % 2
    totals = dict.fromkeys(cards, 0)
    samples = 0
    while samples < max_samples and time.perf_counter() < deadline:
        hands = sample_hands(memory, rng)
        if hands is None:
            break
        try:
            values = solver.card_values(position(view, memory, hands), deadline)
        except solver.OutOfTime:
            break
        for card in cards:
            totals[card] += values[card][team]
        samples += 1
    if not samples:
        return None
    return max(cards, key=lambda c: (totals[c], c == preferred))


def position(view: View, memory: Memory, hands: dict[int, list[str]]) -> solver.Position:
    """The solver's position for the seat's view with ``hands`` guessed for the others."""
    masks = [0, 0, 0, 0]
    for seat in (1, 2, 3, 4):
        cards = view["hand"] if seat == memory.seat else hands[seat]
        for card in cards:
            masks[seat - 1] |= 1 << CARD_OF[card]
    contract = view["contract"]
    trump = contract["trump"]
    return solver.Position(
        (masks[0], masks[1], masks[2], masks[3]),
        tuple((int(p["seat"]), CARD_OF[str(p["card"])]) for p in view["trick"]),
        memory.seat,
        "SHDC".index(trump) if trump else -1,
        bool(contract.get("lock")),
    )
