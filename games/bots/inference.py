"""What the bidding says about the hidden hands, as a weight on a guessed deal.

A seat that bid Hokum most likely holds trumps of that suit; a seat that bid
Sun holds aces; a seat that passed when it could have bid most likely lacks
such holdings. Each public bid (never a timer's automatic one) is read with
the bots' own bidding thresholds (``bidding``): a guessed hand that would
have bid otherwise loses weight the further it is from the bid it made.

A seat judged its bid on five cards and the face-up card; the guess is of
the whole hand it ended with (what it holds now plus what it played), which
holds those six cards and more. So the strength of a bidder's guessed hand
must reach the threshold (its bidding hand already did), while a passer's
may exceed it by ``PASS_SLACK`` before the guess loses weight, since three
more cards came after the bidding.

``sample`` draws deals (``sampling.sample_hands``) and keeps each with the
probability its weight gives, so the deals the strong bot searches are
guesses the bidding makes likely; it never reads a hand the seat does not
hold, only the public bids.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from games.rules.cards import SUITS

from .bidding import HOKUM_BID, HOKUM_MIN_TRUMPS, SUN_BID
from .hand import hokum_strength, of_suit, suit, sun_strength
from .memory import Memory
from .sampling import sample_hands

View = dict[str, Any]

# How much one unit of strength against the bid costs, in log weight.
SHARPNESS = 0.8
# A passer's final hand holds three cards more than the hand it passed with.
PASS_SLACK = 2.5
# Guesses drawn per kept deal at most; the best of them is kept when none passes.
ATTEMPTS = 12


@dataclass(frozen=True)
class Evidence:
    """What one seat's bids say: a strength it reached or stayed under."""

    seat: int
    kind: str  # "hokum" or "sun"
    trump: str | None
    reached: bool
    threshold: float


def read_bids(view: View, faceup: str | None) -> list[Evidence]:
    """The evidence of the other seats' public bids in the deal so far."""
    if not faceup:
        return []
    me = view["seat"]
    faceup_suit = suit(faceup)
    out: list[Evidence] = []
    contract = view.get("contract") or {}
    for b in view.get("bids") or ():
        seat = int(b["seat"])
        if seat == me or b.get("auto"):
            continue
        word = b.get("bid")
        first = int(b.get("round", 1)) == 1
        if word == "pass":
            if first:
                out.append(Evidence(seat, "hokum", faceup_suit, False, HOKUM_BID + PASS_SLACK))
            else:
                for letter in SUITS:
                    if letter != faceup_suit:
                        out.append(Evidence(seat, "hokum", letter, False, HOKUM_BID + PASS_SLACK))
            out.append(Evidence(seat, "sun", None, False, SUN_BID + PASS_SLACK))
        elif word == "hokum":
            trump = faceup_suit if first else None
            if not first and contract.get("type") == "hokum" and contract.get("bidder") == seat:
                trump = contract.get("trump")
            if trump:
                out.append(Evidence(seat, "hokum", trump, True, HOKUM_BID))
        elif word == "sun":
            out.append(Evidence(seat, "sun", None, True, SUN_BID))
        elif word == "confirm" and b.get("trump"):
            out.append(Evidence(seat, "hokum", str(b["trump"]), True, HOKUM_BID))
    return out


def log_weight(
    evidence: list[Evidence],
    hands: dict[int, list[str]],
    played: dict[int, list[str]],
    faceup: str,
) -> float:
    """How well a guessed deal fits the bids: 0 when it fits all, below 0 otherwise."""
    total = 0.0
    held: dict[int, list[str]] = {}
    for ev in evidence:
        cards = held.get(ev.seat)
        if cards is None:
            cards = [*hands.get(ev.seat, ()), *played.get(ev.seat, ())]
            if faceup not in cards:
                cards.append(faceup)  # every seat judged its bid with the face-up card
            held[ev.seat] = cards
        if ev.kind == "hokum":
            assert ev.trump is not None
            strength = hokum_strength(cards, ev.trump)
            if ev.reached and len(of_suit(cards, ev.trump)) < HOKUM_MIN_TRUMPS:
                strength = min(strength, ev.threshold - 2)
        else:
            strength = sun_strength(cards)
        gap = ev.threshold - strength if ev.reached else strength - ev.threshold
        if gap > 0:
            total -= SHARPNESS * gap
    return total


def played_by(memory: Memory) -> dict[int, list[str]]:
    """The cards each seat has played in this deal."""
    out: dict[int, list[str]] = {s: [] for s in (1, 2, 3, 4)}
    for trick in memory.tricks:
        for who, card in trick:
            out[who].append(card)
    return out


def sample(
    memory: Memory,
    evidence: list[Evidence],
    faceup: str | None,
    rng: random.Random,
    played: dict[int, list[str]] | None = None,
) -> dict[int, list[str]] | None:
    """One deal of the unseen cards fitting the memory, kept with the probability
    the bids give it (the best of ``ATTEMPTS`` guesses when none is kept).

    None when no deal fits the memory.
    """
    if not evidence or not faceup:
        return sample_hands(memory, rng)
    played = played if played is not None else played_by(memory)
    best: tuple[float, dict[int, list[str]]] | None = None
    for _ in range(ATTEMPTS):
        hands = sample_hands(memory, rng)
        if hands is None:
            return None
        weight = log_weight(evidence, hands, played, faceup)
        if weight >= 0 or rng.random() < math.exp(weight):
            return hands
        if best is None or weight > best[0]:
            best = (weight, hands)
    return best[1] if best else None
