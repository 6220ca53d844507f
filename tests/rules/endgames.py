"""Seeded random end-games for the solver tests, and plain minimax through the engine."""

from __future__ import annotations

import random

from games.rules import Phase, State, apply, legal_actions, new_match, random_deck, start_deal

KINDS = ("sun", "ashkal", "hokum", "locked hokum")


def kind_of(state: State) -> str:
    """The contract's kind as these tests name it: ``locked hokum`` apart."""
    assert state.contract is not None
    return ("locked " if state.lock else "") + state.contract.kind


def deal_in_play(rng: random.Random, kind: str | None = None) -> State:
    """A random deal at its first card: random bids and calls until a contract
    stands, of ``kind`` when one is asked for (random bids alone give Sun most of
    the time, and a trump ruff is only ever tried in Hokum)."""
    while True:
        state = start_deal(new_match(dealer=rng.randint(1, 4)), random_deck(rng))
        while state.phase not in (Phase.PLAYING, Phase.ROUND_OVER):
            actions = _no_sawa(legal_actions(state))
            if kind is not None:
                actions = [a for a in actions if _leads_to(a, kind)] or actions
            state = apply(state, rng.choice(actions))
        if state.phase is Phase.PLAYING and kind in (None, kind_of(state)):
            return state


def _leads_to(action: dict[str, object], kind: str) -> bool:
    """False for a bid or call that takes the deal away from ``kind``."""
    bid = action.get("bid")
    if bid in ("sun", "ashkal", "hokum") and bid != kind.removeprefix("locked "):
        return False
    if "lock" in action:
        return bool(action["lock"]) == kind.startswith("locked ")
    return True


def endgame(rng: random.Random, max_tricks: int, kind: str | None = None) -> State:
    """A random deal (of ``kind`` when asked) played at random until at most
    ``max_tricks`` tricks are left, stopped at a random card inside the first
    trick left."""
    state = deal_in_play(rng, kind)
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
