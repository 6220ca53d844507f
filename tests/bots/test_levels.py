"""The three bot levels: legal play, information hygiene, card memory and sampling."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games import bots, rules
from games.bots import choose_action, policy
from games.bots.memory import remember
from games.bots.sampling import sample_hands
from games.rules.cards import CARD_STR, cards_of
from tests.bots.deals import play_match
from tests.bots.positions import assert_sample_fits, card_play_positions, without_sawa
from tests.rules.playout import card_strings, public_cards

# A small budget keeps the strong bot's search short in tests.
BUDGET_MS = 40


def _level_bot(level: str) -> Callable[[rules.State, int, random.Random], dict[str, Any]]:
    def choose(state: rules.State, seat: int, rng: random.Random) -> dict[str, Any]:
        action = choose_action(state, seat, level=level, budget_ms=BUDGET_MS)
        assert action in rules.legal_actions(state)
        return action

    return choose


def test_every_level_plays_legal_actions_to_the_end_of_matches() -> None:
    rng = random.Random(31)
    seats = {
        1: _level_bot("strong"),
        2: _level_bot("normal"),
        3: _level_bot("easy"),
        4: _level_bot("strong"),
    }
    for _ in range(2):
        final = play_match(rng, seats)
        assert final.phase is rules.Phase.MATCH_OVER


def test_the_default_level_is_normal_and_unknown_levels_are_refused() -> None:
    assert bots.DEFAULT_LEVEL == "normal"
    assert bots.LEVELS == ("easy", "normal", "strong")
    state = rules.start_deal(rules.new_match(), rules.random_deck(random.Random(2)))
    with pytest.raises(ValueError, match="level"):
        choose_action(state, state.turn or 0, level="grandmaster")


def _allowed_cards(state: rules.State, seat: int) -> set[str]:
    """The cards the seat may know of: its own hand, everything public, the face-up card."""
    allowed = {CARD_STR[c] for c in cards_of(state.hands[seat - 1])} | public_cards(state)
    if state.faceup >= 0:
        allowed.add(CARD_STR[state.faceup])  # shown to every seat while bidding
    return allowed


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_the_decision_function_never_receives_another_seats_cards(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    received: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    real = policy.decide

    def spy(*args: Any, **kwargs: Any) -> dict[str, Any]:
        received.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(policy, "decide", spy)
    rng = random.Random(8)
    checked = 0

    def watched(state: rules.State, seat: int, rng: random.Random) -> dict[str, Any]:
        nonlocal checked
        received.clear()
        action = choose_action(state, seat, level=level, budget_ms=BUDGET_MS)
        ((args, kwargs),) = received
        # Only plain JSON-like data goes in: no State, no engine object.
        for value in (*args, *kwargs.values()):
            assert isinstance(value, (dict, str, int, float)), type(value)
        seen = card_strings([args, kwargs])
        hidden = {
            CARD_STR[c]
            for other in (1, 2, 3, 4)
            if other != seat
            for c in cards_of(state.hands[other - 1])
        }
        leaked = (seen & hidden) - _allowed_cards(state, seat)
        assert not leaked, f"seat {seat} was given {sorted(leaked)}"
        checked += 1
        return action

    play_match(rng, dict.fromkeys((1, 2, 3, 4), watched))
    assert checked > 100


def _random_positions(seed: int, count: int) -> list[rules.State]:
    """States in the card play of deals played half at random, half by normal bots."""

    def mixed(state: rules.State, rng: random.Random) -> dict[str, Any]:
        assert state.turn is not None
        actions = without_sawa(state)
        action = rng.choice(actions) if rng.random() < 0.5 else choose_action(state, state.turn)
        return action if action in actions else rng.choice(actions)

    return card_play_positions(seed, count, 0.3, mixed)


def test_the_memory_never_contradicts_the_real_hands() -> None:
    # Voids, known cards and counts drawn from the public history must all
    # hold for the hands the other seats really have.
    voids_seen = 0
    for state in _random_positions(seed=5, count=300):
        seat = state.turn
        assert seat is not None
        memory = remember(rules.view_for(state, seat), rules.public_history(state))
        for other in memory.others():
            real = {CARD_STR[c] for c in cards_of(state.hands[other - 1])}
            assert len(real) == memory.counts[other]
            assert memory.known[other] <= real
            for card in real:
                assert memory.may_hold(other, card), (other, card)
            voids_seen += len(memory.voids[other])
        assert set(memory.unseen) == {
            CARD_STR[c] for o in memory.others() for c in cards_of(state.hands[o - 1])
        }
    assert voids_seen > 100


def test_samples_deal_every_unseen_card_and_respect_the_memory() -> None:
    rng = random.Random(3)
    for state in _random_positions(seed=6, count=120):
        seat = state.turn
        assert seat is not None
        memory = remember(rules.view_for(state, seat), rules.public_history(state))
        for _ in range(3):
            hands = sample_hands(memory, rng)
            assert hands is not None
            assert_sample_fits(hands, memory)
