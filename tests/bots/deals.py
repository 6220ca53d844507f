"""Building bot scenarios from chosen hands, and playing whole matches.

Hands are given by seat as eight notation cards; the deck that deals them is
``rules.deck_from_hands`` (notation.md: Dealing from deck), so the state a
scenario reaches is exactly the one a real deal would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import rules
from games.bots import choose_action

Policy = Callable[[rules.State, int, random.Random], dict[str, Any]]


def deal(hands: dict[int, str], faceup: str, taker: int, dealer: int = 4) -> rules.State:
    """A deal in its first bidding turn, dealing ``hands`` ("7S 8S ..." per seat).

    The first five cards of each hand are dealt first (``deck_from_hands``).
    """
    cards = {seat: text.split() for seat, text in hands.items()}
    deck = rules.deck_from_hands(dealer, cards, faceup, taker)
    return rules.start_deal(rules.new_match("classic", dealer=dealer), deck)


def act(state: rules.State, *actions: dict[str, Any]) -> rules.State:
    """``state`` after ``actions``, each given without its seat (the seat to act is used)."""
    for action in actions:
        state = rules.apply(state, {"seat": state.turn, **action})
    return state


def declare_nothing(state: rules.State) -> rules.State:
    """Every seat declares no project, which starts the play (D18)."""
    while state.phase is rules.Phase.DECLARING:
        state = act(state, {"declare": []})
    return state


def bot(state: rules.State, seat: int, rng: random.Random) -> dict[str, Any]:
    """The bot under test."""
    return choose_action(state, seat)


def uniform(state: rules.State, seat: int, rng: random.Random) -> dict[str, Any]:
    """A player choosing uniformly among the legal actions."""
    return rng.choice(rules.legal_actions(state))


def play_match(
    rng: random.Random,
    policies: dict[int, Policy],
    watch: Callable[[rules.State, dict[str, Any]], None] | None = None,
    max_actions: int = 5000,
) -> rules.State:
    """A whole match to its winner, each seat acting by its policy; ``watch`` sees every choice.

    Fails the test if the match has not ended after ``max_actions`` actions.
    """
    state = rules.new_match("classic", dealer=rng.randint(1, 4))
    for _ in range(max_actions):
        if state.phase is rules.Phase.MATCH_OVER:
            return state
        if state.phase in (rules.Phase.DEALING, rules.Phase.ROUND_OVER):
            state = rules.start_deal(state, rules.random_deck(rng))
            continue
        seat = state.turn
        assert seat is not None
        action = policies[seat](state, seat, rng)
        if watch is not None:
            watch(state, action)
        state = rules.apply(state, action)
    raise AssertionError(f"the match did not end within {max_actions} actions")
