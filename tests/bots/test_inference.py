"""What the bidding says about hidden hands (``games.bots.inference``)."""

from __future__ import annotations

import random
from typing import Any

from games import rules
from games.bots import choose_action, inference
from games.bots.memory import remember
from tests.bots.positions import assert_sample_fits, card_play_positions


def _positions(seed: int, count: int) -> list[rules.State]:
    """States in the card play of deals bid and played by easy bots."""

    def easy(state: rules.State, _rng: random.Random) -> dict[str, Any]:
        assert state.turn is not None
        return choose_action(state, state.turn, level="easy")

    return card_play_positions(seed, count, 0.25, easy)


def test_weighted_samples_never_contradict_the_memory() -> None:
    rng = random.Random(8)
    with_evidence = 0
    for state in _positions(seed=4, count=150):
        seat = state.turn
        assert seat is not None
        view = rules.view_for(state, seat)
        history = rules.public_history(state)
        memory = remember(view, history)
        evidence = inference.read_bids(view, history["faceup"])
        with_evidence += bool(evidence)
        assert all(ev.seat != seat for ev in evidence)
        for _ in range(3):
            hands = inference.sample(memory, evidence, history["faceup"], rng)
            assert hands is not None
            assert_sample_fits(hands, memory)
            for cards in hands.values():
                assert not set(cards) & memory.played
    assert with_evidence > 100


def test_a_hokum_bidder_is_guessed_with_trumps_and_a_passer_without() -> None:
    # Seat 1 bid Hokum in spades with the face-up JS; seat 2 passed it. The
    # real hands of bidder and passer are drawn anew: only the bids speak.
    view = {
        "seat": 3,
        "bids": [
            {"seat": 1, "bid": "hokum", "round": 1, "auto": False},
            {"seat": 2, "bid": "pass", "round": 1, "auto": False},
        ],
        "contract": {"type": "hokum", "trump": "S", "bidder": 1},
    }
    evidence = inference.read_bids(view, "7S")
    strong = {1: ["JS", "9S", "AS", "AH", "TH", "7D", "8D", "7C"], 2: ["7H"] * 8}
    weak = {1: ["7H", "8H", "9H", "7D", "8D", "9D", "7C", "8C"], 2: ["7H"] * 8}
    played: dict[int, list[str]] = {}
    assert inference.log_weight(evidence, strong, played, "7S") == 0
    assert inference.log_weight(evidence, weak, played, "7S") < -3
    passer_strong = {1: strong[1], 2: ["JS", "9S", "AS", "TS", "AH", "AD", "AC", "KS"]}
    assert inference.log_weight(evidence, passer_strong, played, "7S") < -3


def test_the_bidding_shifts_the_guessed_cards_towards_the_bidder() -> None:
    # Over many card-play positions, the contract's bidder (another seat) is
    # guessed to hold more trumps with the bids read than without.
    rng = random.Random(5)
    read = plain = 0
    for state in _positions(seed=9, count=120):
        seat = state.turn
        contract = state.contract
        assert seat is not None
        assert contract is not None
        if contract.trump < 0 or contract.bidder == seat:
            continue
        view = rules.view_for(state, seat)
        history = rules.public_history(state)
        memory = remember(view, history)
        evidence = inference.read_bids(view, history["faceup"])
        trump = "SHDC"[contract.trump]
        for _ in range(4):
            guided = inference.sample(memory, evidence, history["faceup"], rng)
            blind = inference.sample(memory, [], history["faceup"], rng)
            assert guided is not None
            assert blind is not None
            read += sum(c[1] == trump for c in guided[contract.bidder])
            plain += sum(c[1] == trump for c in blind[contract.bidder])
    assert read > plain * 1.05
