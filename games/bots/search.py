"""Determinized search for a card: the core of the bots' card play.

The unseen cards are dealt to the other seats many times, each deal
consistent with everything the seat knows (``memory``, ``sampling``, and for
the strong bot what the bidding says, ``inference``). Near the end every
deal is solved exactly with ``games.rules.solver``; earlier each card is
tried on every deal and the rest played out quickly (``playout``, exact
again for the last tricks). The card with the best total of card points
for the seat's team wins.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from games.rules import solver
from games.rules.cards import CARD_OF
from games.rules.projects import VALUES as PROJECT_VALUES

from .hand import points, power, suit
from .memory import Memory
from .playout import play_out, take_trick
from .sampling import sample_hands

View = dict[str, Any]
Sampler = Callable[[Memory, random.Random], "dict[int, list[str]] | None"]


class Scorer:
    """The deal's game points for a team, given the card points each team takes
    from here on: the contract made or lost (D21-D24) on top of the card points.

    Projects count for the team that shows the best one (once the first trick
    is over the view says which); Baloot and the sweep bonus are left out.
    """

    def __init__(self, view: View) -> None:
        contract = view["contract"]
        self.team = (view["seat"] - 1) % 2
        self.bidders = (int(contract["bidder"]) - 1) % 2
        self.divisor = 5.0 if contract["type"] != "hokum" else 10.0
        self.multiplier = int(contract.get("multiplier") or 1)
        taken = view.get("card_points") or {}
        self.base = [float(taken.get("A", 0)), float(taken.get("B", 0))]
        declared = view.get("declarations") or {}
        best = [0, 0]
        totals = [0, 0]
        for key, projects in declared.items():
            side = (int(key) - 1) % 2
            for project in projects or ():
                value = PROJECT_VALUES.get(project["project"], 0)
                totals[side] += value
                best[side] = max(best[side], value)
        counting = view.get("counting_team")
        if counting in ("A", "B"):
            side = "AB".index(counting)
        elif best[0] != best[1]:
            side = 0 if best[0] > best[1] else 1
        else:
            side = -1
        if side >= 0:
            self.base[side] += totals[side]

    def __call__(self, rest: tuple[int, int] | list[int]) -> float:
        """The seat's team's game points minus the other team's."""
        a = (self.base[0] + rest[0]) / self.divisor
        b = (self.base[1] + rest[1]) / self.divisor
        bidders = (a, b)[self.bidders]
        defenders = (a, b)[1 - self.bidders]
        if self.multiplier > 1:
            # Doubled: the winner takes everything, multiplied (D24).
            won = bidders > defenders
            value = (a + b) * self.multiplier
            mine = won == (self.team == self.bidders)
            return value if mine else -value
        if bidders <= defenders:
            # Defeated: the defenders take everything (D23).
            return a + b if self.team != self.bidders else -(a + b)
        return (a - b) if self.team == 0 else (b - a)


def best_card(
    view: View,
    memory: Memory,
    cards: list[str],
    preferred: str | None,
    deadline: float,
    max_samples: int,
    rng: random.Random,
    sampler: Sampler = sample_hands,
) -> str | None:
    """The card of ``cards`` with the best total over the sampled deals, each
    solved exactly, ``preferred`` winning ties; None when no deal was solved
    before ``deadline``."""
    score = Scorer(view)
    totals = dict.fromkeys(cards, 0.0)
    samples = 0
    while samples < max_samples and time.perf_counter() < deadline:
        hands = sampler(memory, rng)
        if hands is None:
            break
        try:
            values = solver.card_values(position(view, memory, hands), deadline)
        except solver.OutOfTime:
            break
        for card in cards:
            totals[card] += score(values[card])
        samples += 1
    if not samples:
        return None
    return max(cards, key=lambda c: (totals[c], c == preferred))


def best_card_by_playout(
    view: View,
    memory: Memory,
    cards: list[str],
    preferred: str | None,
    deadline: float,
    max_samples: int,
    rng: random.Random,
    sampler: Sampler = sample_hands,
    margin: float = 0.0,
) -> str | None:
    """The card of ``cards`` with the best total over the sampled deals, each
    card played and the deal played out quickly (``playout.play_out``);
    ``preferred`` wins ties and ``margin`` game points a deal more. None when
    no deal was played before ``deadline``."""
    seat = view["seat"]
    score = Scorer(view)
    contract = view["contract"]
    bidder = int(contract["bidder"])
    tried = distinct(cards, memory, contract["trump"])
    totals = dict.fromkeys(tried, 0.0)
    samples = 0
    while samples < max_samples and time.perf_counter() < deadline:
        hands = sampler(memory, rng)
        if hands is None:
            break
        pos = position(view, memory, hands)
        values: dict[str, float] = {}
        for card in tried:
            if time.perf_counter() > deadline:
                break
            c = CARD_OF[card]
            masks = list(pos.hands)
            masks[seat - 1] &= ~(1 << c)
            trick = [*pos.trick, (seat, c)]
            taken = [0, 0]
            turn = seat % 4 + 1
            if len(trick) == 4:
                turn = take_trick(trick, masks, pos.trump, taken)
                trick = []
            rest = play_out(masks, trick, turn, pos.trump, pos.lock, bidder)
            values[card] = score((taken[0] + rest[0], taken[1] + rest[1]))
        if len(values) < len(tried):
            break  # out of time: a deal not tried with every card does not count
        for card, value in values.items():
            totals[card] += value
        samples += 1
    if not samples:
        return None
    if preferred in cards and preferred not in totals:
        # The preferred card's twin stands for it.
        twin = next(c for c in tried if equivalent(c, preferred, memory, contract["trump"]))
        totals[preferred] = totals.pop(twin)
    if preferred in totals:
        totals[preferred] += margin * samples
    return max(totals, key=lambda c: (totals[c], c == preferred))


def distinct(cards: list[str], memory: Memory, trump: str | None) -> list[str]:
    """``cards`` without those equivalent to one kept before them."""
    kept: list[str] = []
    for card in cards:
        if not any(equivalent(card, k, memory, trump) for k in kept):
            kept.append(card)
    return kept


def equivalent(a: str, b: str, memory: Memory, trump: str | None) -> bool:
    """True when two cards of the hand bring the same: one suit, the same card
    points and no card still out between them in trick order."""
    if a == b:
        return True
    if suit(a) != suit(b) or points(a, trump) != points(b, trump):
        return False
    low, high = sorted((power(a, trump), power(b, trump)))
    return not any(suit(c) == suit(a) and low < power(c, trump) < high for c in memory.unseen)


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
