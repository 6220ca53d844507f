"""Helpers of the bot tests: seeded card-play positions, and checks of guessed hands."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import rules

IN_DEAL = (rules.Phase.BIDDING, rules.Phase.DOUBLING, rules.Phase.DECLARING, rules.Phase.PLAYING)

Chooser = Callable[[rules.State, random.Random], dict[str, Any]]


def card_play_positions(seed: int, count: int, share: float, choose: Chooser) -> list[rules.State]:
    """``count`` states in the card play of seeded deals whose every action ``choose`` picks.

    Each state of the card play is kept with probability ``share``, so the
    positions spread over the whole play.
    """
    rng = random.Random(seed)
    out: list[rules.State] = []
    while len(out) < count:
        state = rules.start_deal(rules.new_match(dealer=rng.randint(1, 4)), rules.random_deck(rng))
        while state.phase in IN_DEAL:
            if state.phase is rules.Phase.PLAYING and rng.random() < share:
                out.append(state)
            state = rules.apply(state, choose(state, rng))
    return out


def without_sawa(state: rules.State) -> list[dict[str, Any]]:
    """The legal actions but a Sawa claim, which would end the deal at once."""
    return [a for a in rules.legal_actions(state) if not a.get("sawa")]


def assert_sample_fits(hands: dict[int, list[str]], memory: Any) -> None:
    """Guessed ``hands`` deal exactly the unseen cards, each seat its count, its
    known cards and none it cannot hold."""
    dealt = [c for cards in hands.values() for c in cards]
    assert sorted(dealt) == sorted(memory.unseen)
    for other, cards in hands.items():
        assert len(cards) == memory.counts[other]
        assert memory.known[other] <= set(cards)
        assert all(memory.may_hold(other, c) for c in cards)
