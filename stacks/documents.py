"""Long but legal ``baloot/1`` documents, built by playing the rules engine.

``long_document(deals)`` gives a match of exactly ``deals`` deals: every
``played_every``-th deal is bid and played out (the first legal bid that is
not a pass, then the first legal action each time), the others are passed
out by all four players. A played deal that would end the match is passed
out instead, so the match is still running after the last deal: a legal
document of any length, as the importer must take it.
"""

from __future__ import annotations

import json
from typing import Any

from games import rules


def _pass_out(state: rules.State) -> tuple[rules.State, list[dict[str, Any]]]:
    actions = []
    while state.phase is rules.Phase.BIDDING:
        action = {"seat": state.turn, "bid": "pass"}
        state = rules.apply(state, action)
        actions.append(action)
    return state, actions


def _play_out(state: rules.State) -> tuple[rules.State, list[dict[str, Any]]]:
    actions = []
    while state.phase not in (rules.Phase.ROUND_OVER, rules.Phase.MATCH_OVER):
        legal = rules.legal_actions(state)
        bids = [a for a in legal if a.get("bid") not in (None, "pass")]
        action = bids[0] if bids else legal[0]
        state = rules.apply(state, action)
        actions.append(action)
    return state, actions


def long_document(deals: int, *, played_every: int = 10, mode: str = "classic") -> str:
    """The text of a legal document of ``deals`` deals, the match still running after them."""
    state = rules.new_match(mode, dealer=4)
    rounds = []
    for number in range(deals):
        deck = rules.deck_from_seed(f"{number:064x}")
        dealer = state.next_dealer
        started = rules.start_deal(state, deck)
        after, actions = started, list[dict[str, Any]]()
        if played_every and number % played_every == played_every - 1:
            after, actions = _play_out(started)
        if not actions or after.phase is rules.Phase.MATCH_OVER:
            after, actions = _pass_out(started)
        state = after
        rounds.append({"dealer": dealer, "deck": deck, "actions": actions})
    return json.dumps({"notation": "baloot/1", "mode": mode, "rounds": rounds})
