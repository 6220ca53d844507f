"""The state record itself: copies are complete, tricks are named records."""

from __future__ import annotations

import random

from games.rules import (
    Phase,
    State,
    Trick,
    apply,
    legal_actions,
    new_match,
    random_deck,
    start_deal,
)


def test_copy_carries_every_field() -> None:
    rng = random.Random(5)
    state = start_deal(new_match(), random_deck(rng))
    while state.phase is not Phase.ROUND_OVER:
        state = apply(state, rng.choice(legal_actions(state)))
    copy = state.copy()
    assert copy is not state
    assert copy == state
    for name in State.__slots__:
        assert getattr(copy, name) is getattr(state, name), name


def test_tricks_are_records_of_plays() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(20):
        state = start_deal(new_match(), random_deck(rng))
        while state.phase is not Phase.ROUND_OVER:
            state = apply(state, rng.choice(legal_actions(state)))
        for trick in state.tricks:
            assert isinstance(trick, Trick)
            assert len(trick.plays) == 4
            seats = [seat for seat, _ in trick.plays]
            assert seats[0] == trick.leader
            assert seats == [(trick.leader + i - 1) % 4 + 1 for i in range(4)]
            assert trick.winner in seats
            checked += 1
    assert checked > 20
