"""Information hygiene: a bot's choice depends on nothing its seat cannot see.

For positions of real deals at every phase, a second deal is built that the
seat cannot tell apart from the first: the same public actions and the same
cards for the seat, with the other seats' hidden cards dealt among them
anew. Every level must then choose the same action in both deals. A bot that
looked at another hand, however indirectly (through the state, the deck or
a cache), would sooner or later choose differently.

The strong bot stops its searches (card play, and the Monte Carlo check of
its bids, calls and declarations) at a time budget, so here it gets a budget
it never reaches and a small fixed number of samples: its choices then
depend on its inputs alone.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import rules
from games.bots import bidding, choose_action, strong, strong_auction
from games.rules.cards import CARD_STR, SUITS, cards_of

LEVELS = ("easy", "normal", "strong")


@pytest.fixture(autouse=True)
def _deterministic_strong(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strong, "SOLVE_SAMPLES", 4)
    monkeypatch.setattr(strong, "PLAYOUT_SAMPLES", 4)
    monkeypatch.setattr(strong_auction, "BID_SAMPLES", 6)
    monkeypatch.setattr(strong_auction, "CALL_SAMPLES", 6)
    monkeypatch.setattr(strong_auction, "DECLARE_SAMPLES", 6)
    monkeypatch.setattr(strong_auction, "MIN_SAMPLES", 4)


def _choose(state: rules.State, seat: int, level: str) -> dict[str, Any]:
    return choose_action(state, seat, level=level, budget_ms=10**9)


def _played(actions: list[dict[str, Any]], seat: int) -> list[str]:
    return [a["play"] for a in actions if a.get("seat") == seat and "play" in a]


def _public_cards_of(actions: list[dict[str, Any]], seat: int, trump: int) -> set[str]:
    """Cards the other seats may know ``seat`` holds, or may infer it held:
    its declared projects and, in Hokum, the trump K and Q (Baloot)."""
    out = {
        c
        for a in actions
        if a.get("seat") == seat
        for p in a.get("declare", [])
        for c in p["cards"]
    }
    if trump >= 0:
        out |= {"K" + SUITS[trump], "Q" + SUITS[trump]}
    return out


def _indistinguishable(
    state: rules.State, actions: list[dict[str, Any]], dealer: int, seat: int, rng: random.Random
) -> rules.State | None:
    """Another deal with the same public actions and the same cards for ``seat``,
    or None when the drawn one does not replay."""
    taker = state.contract.taker if state.contract else None
    faceup = CARD_STR[state.faceup] if state.faceup >= 0 else None
    held = {s: [CARD_STR[c] for c in cards_of(state.hands[s - 1])] for s in (1, 2, 3, 4)}
    fixed: dict[int, list[str]] = {}
    free: list[str] = []
    for s in (1, 2, 3, 4):
        if s == seat:
            continue
        keep = _public_cards_of(actions, s, state.trump)
        if s == taker and faceup:
            keep.add(faceup)
        fixed[s] = [c for c in held[s] if c in keep]
        free += [c for c in held[s] if c not in keep]
    rng.shuffle(free)
    hands: dict[int, list[str]] = {seat: _played(actions, seat) + held[seat]}
    for s in fixed:
        size = len(held[s]) - len(fixed[s])
        hands[s] = _played(actions, s) + fixed[s] + free[:size]
        free = free[size:]
    if state.contract is None:
        # Still bidding: five cards each, the face-up card, then the rest of the deck.
        order = [(dealer + i) % 4 + 1 for i in range(4)]
        rest = [c for c in CARD_STR if faceup != c and all(c not in hands[s][:5] for s in order)]
        rng.shuffle(rest)
        deck = [c for s in order for c in hands[s][:3]] + [c for s in order for c in hands[s][3:5]]
        deck += [str(faceup), *rest]
    else:
        assert taker is not None
        assert faceup is not None
        deck = rules.deck_from_hands(dealer, hands, faceup, taker)
    other = rules.start_deal(rules.new_match("classic", dealer=dealer), deck)
    try:
        other = rules.replay(other, actions)
    except rules.IllegalAction:
        return None
    if rules.view_for(other, seat) != rules.view_for(state, seat):
        return None
    if rules.public_history(other) != rules.public_history(state):
        return None
    return other


def _positions(seed: int, count: int) -> list[tuple[rules.State, list[dict[str, Any]], int]]:
    """Positions of first deals played by normal bots, each with the actions leading to it."""
    rng = random.Random(seed)
    out: list[tuple[rules.State, list[dict[str, Any]], int]] = []
    while len(out) < count:
        dealer = rng.randint(1, 4)
        state = rules.start_deal(rules.new_match("classic", dealer=dealer), rules.random_deck(rng))
        actions: list[dict[str, Any]] = []
        while state.phase in (
            rules.Phase.BIDDING,
            rules.Phase.DOUBLING,
            rules.Phase.DECLARING,
            rules.Phase.PLAYING,
        ):
            if rng.random() < 0.15:
                out.append((state, list(actions), dealer))
            legal = [a for a in rules.legal_actions(state) if not a.get("sawa")]
            action = (
                choose_action(state, state.turn or 0) if rng.random() < 0.7 else rng.choice(legal)
            )
            if action.get("sawa"):
                action = rng.choice(legal)
            actions.append(action)
            state = rules.apply(state, action)
    return out


def _another_deal(
    state: rules.State, actions: list[dict[str, Any]], dealer: int, seat: int, rng: random.Random
) -> rules.State | None:
    """A deal ``seat`` cannot tell from ``state`` in which the hidden hands differ,
    or None when thirty tries find none."""
    for _ in range(30):
        other = _indistinguishable(state, actions, dealer, seat, rng)
        if other is not None and other.hands != state.hands:
            return other
    return None


def test_hidden_cards_dealt_anew_never_change_any_levels_choice() -> None:
    rng = random.Random(13)
    compared: dict[str, int] = {}
    for state, actions, dealer in _positions(seed=21, count=90):
        seat = state.turn
        assert seat is not None
        other = _another_deal(state, actions, dealer, seat, rng)
        if other is None:
            continue
        for level in LEVELS:
            assert _choose(state, seat, level) == _choose(other, seat, level), (level, actions)
        compared[state.phase.value] = compared.get(state.phase.value, 0) + 1
    assert compared.get("playing", 0) >= 30, compared
    assert compared.get("bidding", 0) >= 5, compared


def test_the_comparison_catches_a_bot_that_peeks() -> None:
    # The deals built above do differ where a peeking bot would look: one that
    # picks its action by another seat's hand chooses differently in some.
    def peeking(state: rules.State, seat: int) -> dict[str, Any]:
        legal = rules.legal_actions(state)
        return legal[state.hands[seat % 4] % len(legal)]

    rng = random.Random(2)
    differ = 0
    for state, actions, dealer in _positions(seed=22, count=40):
        seat = state.turn
        assert seat is not None
        other = _indistinguishable(state, actions, dealer, seat, rng)
        if other is not None and other.hands != state.hands:
            differ += peeking(state, seat) != peeking(other, seat)
    assert differ >= 3


def _auction_values(state: rules.State, seat: int) -> object:
    """What the strong bot's Monte Carlo check computes at a bid or a call,
    whether or not the hand is close enough for the check to be used."""
    view = rules.view_for(state, seat)
    history = rules.public_history(state)
    if state.phase is rules.Phase.BIDDING:
        if not any(a.get("bid") == "hokum" for a in view["legal"]):
            return None
        trump, _ = bidding.best_hokum(view)
        return strong_auction.judge_bids(
            view, history, ["sun", "hokum"], trump, 10**9, random.Random(0)
        )
    if state.phase is rules.Phase.DOUBLING:
        offered = next(a["double"] for a in view["legal"] if a["double"] != "pass")
        return strong_auction.judge_calls(view, history, offered, 10**9, random.Random(0))
    return _choose(state, seat, "strong")


def test_the_strong_bots_monte_carlo_check_sees_only_its_seat() -> None:
    # The check's values, not only the choices they lead to (which mostly
    # stay the heuristic's), are the same in deals the seat cannot tell apart.
    rng = random.Random(14)
    compared: dict[str, int] = {}
    positions = [p for p in _positions(seed=24, count=500) if p[0].phase is not rules.Phase.PLAYING]
    for state, actions, dealer in positions:
        seat = state.turn
        assert seat is not None
        if compared.get(state.phase.value, 0) >= 12:
            continue
        other = _another_deal(state, actions, dealer, seat, rng)
        if other is None:
            continue
        values = _auction_values(state, seat)
        if values is None:
            continue
        assert values == _auction_values(other, seat), (state.phase, actions)
        compared[state.phase.value] = compared.get(state.phase.value, 0) + 1
    assert compared.get("bidding", 0) >= 10, compared
    assert compared.get("doubling", 0) >= 3, compared
    assert compared.get("declaring", 0) >= 10, compared
