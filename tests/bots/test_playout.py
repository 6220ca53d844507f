"""Quick playouts on card masks (``games.bots.playout``) against the engine and the solver."""

from __future__ import annotations

import random
from typing import Any

from games import rules
from games.bots import playout
from games.rules import solver
from games.rules.cards import suit_of
from tests.bots.positions import card_play_positions, without_sawa


def _positions(seed: int, count: int) -> list[rules.State]:
    """States in the card play of random deals with random legal play (contracts preferred)."""

    def random_play(state: rules.State, rng: random.Random) -> dict[str, Any]:
        actions = without_sawa(state)
        bids = [a for a in actions if a.get("bid") in ("hokum", "sun")]
        return rng.choice(bids or actions)

    return card_play_positions(seed, count, 0.2, random_play)


def test_every_heuristic_card_is_legal_and_playouts_take_every_point() -> None:
    for state in _positions(seed=1, count=300):
        position = solver.position_of(state)
        contract = state.contract
        assert contract is not None
        card = playout.choose(
            position.hands,
            position.trick,
            position.turn,
            position.trump,
            position.lock,
            contract.bidder,
        )
        legal = solver.legal_cards(
            position.hands[position.turn - 1], position.trick, position.trump, position.lock
        )
        assert legal >> card & 1
        taken = playout.play_out(
            position.hands,
            position.trick,
            position.turn,
            position.trump,
            position.lock,
            contract.bidder,
        )
        assert sum(taken) == solver.remaining_points(position)
        assert min(taken) >= 0


def test_the_last_tricks_are_counted_exactly() -> None:
    checked = 0
    for state in _positions(seed=2, count=400):
        position = solver.position_of(state)
        contract = state.contract
        assert contract is not None
        if position.trick or max(h.bit_count() for h in position.hands) > playout.EXACT_FROM:
            continue
        taken = playout.play_out(
            position.hands, (), position.turn, position.trump, position.lock, contract.bidder
        )
        assert taken == solver.value(position)
        checked += 1
    assert checked > 10


def test_the_trick_winner_is_the_engines() -> None:
    for state in _positions(seed=3, count=200):
        if len(state.trick) < 2:
            continue
        seat, card = playout.trick_winner(state.trick, state.trump)
        assert (seat, card) in state.trick
        # Whoever it names, no other card on the table beats it under D2.
        led = suit_of(state.trick[0][1])
        power = playout.POWER[state.trump + 1]
        for _, other in state.trick:
            if other != card and suit_of(other) in (led, state.trump):
                assert power[other] < power[card]
