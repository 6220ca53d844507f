"""Dealing the unseen cards to the other seats, consistently with a seat's memory."""

from __future__ import annotations

import random

from .hand import suit
from .memory import Memory

# Deals that break a void are redrawn this many times before the constraint
# that failed is relaxed (it cannot fail for a consistent memory, but a
# memory built from a timer-forced history is still only a belief).
ATTEMPTS = 40


def sample_hands(memory: Memory, rng: random.Random) -> dict[int, list[str]] | None:
    """One deal of the unseen cards to the other three seats: each gets as many
    cards as it holds, keeps its known cards and no card of a suit it lacks.

    None when no such deal was found.
    """
    others = memory.others()
    for _ in range(ATTEMPTS):
        hands = _try(memory, others, rng)
        if hands is not None:
            return hands
    return None


def _try(memory: Memory, others: list[int], rng: random.Random) -> dict[int, list[str]] | None:
    hands: dict[int, list[str]] = {s: [] for s in others}
    room = {s: memory.counts.get(s, 0) for s in others}
    free = []
    for card in memory.unseen:
        owner = next((s for s in others if card in memory.known.get(s, set())), None)
        if owner is None:
            free.append(card)
        else:
            hands[owner].append(card)
            room[owner] -= 1
    if any(n < 0 for n in room.values()):
        return None
    rng.shuffle(free)
    options = {c: [s for s in others if suit(c) not in memory.voids.get(s, set())] for c in free}
    # The most constrained cards first, so that the last seats do not run out of fitting cards.
    free.sort(key=lambda c: len(options[c]))
    for card in free:
        fits = [s for s in options[card] if room[s] > 0]
        if not fits:
            return None
        weights = [room[s] for s in fits]
        seat = rng.choices(fits, weights)[0]
        hands[seat].append(card)
        room[seat] -= 1
    return hands
