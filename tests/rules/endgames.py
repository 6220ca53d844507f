"""Seeded random end-games for the solver tests, and plain minimax through the engine."""

from __future__ import annotations

import random

from games.rules import Phase, State, apply, legal_actions, new_match, random_deck, start_deal


def deal_in_play(rng: random.Random) -> State:
    """A random deal at its first card: random bids and calls until a contract stands."""
    while True:
        state = start_deal(new_match(dealer=rng.randint(1, 4)), random_deck(rng))
        while state.phase not in (Phase.PLAYING, Phase.ROUND_OVER):
            state = apply(state, rng.choice(_no_sawa(legal_actions(state))))
        if state.phase is Phase.PLAYING:
            return state


def endgame(rng: random.Random, max_tricks: int) -> State:
    """A random deal played at random until at most ``max_tricks`` tricks are left,
    stopped at a random card inside the first trick left."""
    state = deal_in_play(rng)
    tricks_left = rng.randint(1, max_tricks)
    stop = rng.randint(0, 3)
    while not (8 - len(state.tricks) <= tricks_left and len(state.trick) == stop):
        state = apply(state, rng.choice(_no_sawa(legal_actions(state))))
    return state


def _no_sawa(actions: list[dict[str, object]]) -> list[dict[str, object]]:
    return [a for a in actions if not a.get("sawa") and not a.get("baloot")] or actions


def minimax(state: State) -> int:
    """Card points team A takes from the current trick on, by plain minimax over
    the engine's own legal cards (no pruning, no table)."""
    return _minimax(state) - state.points[0]


def _minimax(state: State) -> int:
    if state.phase is not Phase.PLAYING:
        return state.points[0]
    seat = state.turn
    assert seat is not None
    values = [
        _minimax(apply(state, a))
        for a in legal_actions(state)
        if "play" in a and not a.get("baloot")
    ]
    return max(values) if seat % 2 == 1 else min(values)
