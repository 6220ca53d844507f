"""Seeded random playouts of whole matches, checking invariants at every step.

The checks follow issue 2 and ``style.md`` (OpenSpiel's RandomSimTest): all 32
cards accounted for, only the seat to act may act, every legal action applies
and a sample of illegal ones raise, no view leaks another seat's unplayed card,
and at the end of every deal: replay equals state, the notation round-trips,
card points add up (D1, D21, D25) and scores never fall.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from games.rules import (
    CARD_STR,
    Document,
    IllegalAction,
    NotYourTurn,
    Phase,
    RoundRecord,
    State,
    apply,
    legal_actions,
    new_match,
    random_deck,
    read_document,
    replay_document,
    restore,
    snapshot,
    start_deal,
    view_for,
    write_document,
)
from games.rules.cards import CARD_OF, cards_of

LIVE = (Phase.BIDDING, Phase.DOUBLING, Phase.DECLARING, Phase.PLAYING)


# A JSON string token that is exactly a card. In JSON text without a
# backslash, a double quote only ever opens or closes a string, so each match
# is one whole string, a key or a value.
CARD_TOKEN = re.compile(r'"([789TJQKA][SHDC])"')


def card_strings(value: Any) -> set[str]:
    """Every card string anywhere in a JSON-like value (as a key or a value)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        return _walk_card_strings(value)
    if "\\" in text:
        # An escaped character: a quote may sit inside a string.
        return _walk_card_strings(value)
    return set(CARD_TOKEN.findall(text))


def _walk_card_strings(value: Any) -> set[str]:
    """``card_strings`` by walking the value, for what JSON cannot show plainly."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARD_OF:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item.keys())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def public_cards(state: State) -> set[str]:
    """Cards any seat may know of: played cards, revealed projects (D18), the
    face-up card while it lies on the table, a redeal hand (D7), a Sawa
    claimer's remaining cards once the deal has ended by the claim (D26)."""
    seen = {CARD_STR[c] for _, c in state.trick}
    for _, cards, _ in state.tricks:
        seen.update(CARD_STR[c] for _, c in cards)
    if state.phase is Phase.BIDDING:
        seen.add(CARD_STR[state.faceup])
    if state.tricks or state.phase not in LIVE:
        for projects in state.declared:
            for _, shown in projects or ():
                seen.update(CARD_STR[c] for c in shown)
    if state.outcome == "redeal":
        seen.update(CARD_STR[c] for c in cards_of(state.dealt[state.redeal_seat - 1]))
    if state.outcome == "sawa":
        # D26: a claim is shown, so the claimer's remaining cards are laid down.
        claimer = next(a["seat"] for a in reversed(state.deal_actions) if a.get("sawa"))
        seen.update(CARD_STR[c] for c in cards_of(state.hands[claimer - 1]))
    return seen


def check_no_leak(state: State) -> None:
    public = public_cards(state)
    for seat in (None, 1, 2, 3, 4):
        visible = card_strings(view_for(state, seat))
        for other in range(1, 5):
            if other == seat:
                continue
            hidden = {CARD_STR[c] for c in cards_of(state.hands[other - 1])} - public
            leaked = visible & hidden
            assert not leaked, f"seat {seat} sees {leaked} of seat {other}"
        undealt = {CARD_STR[c] for c in state.deck[21:]} if state.phase is Phase.BIDDING else set()
        assert not visible & (undealt - public), "the undealt deck leaked"
    # A seat's view made on the spectator's (as the live table makes them) is
    # that seat's view: the public part holds nothing of any seat's own.
    spectator = view_for(state, None)
    for seat in (1, 2, 3, 4):
        assert view_for(state, seat, public=spectator) == view_for(state, seat), seat


def check_cards(state: State) -> None:
    if state.phase not in LIVE:
        return
    held = 0
    count = 0
    for hand in state.hands:
        held |= hand
        count += hand.bit_count()
    played = [c for _, c in state.trick] + [c for _, t, _ in state.tricks for _, c in t]
    for c in played:
        held |= 1 << c
    count += len(played)
    if state.phase is Phase.BIDDING:
        rest = (state.faceup, *state.deck[21:])
        for c in rest:
            held |= 1 << c
        count += len(rest)
    assert count == 32, "cards lost or doubled"
    assert held == (1 << 32) - 1, "cards lost or doubled"
    sizes = {h.bit_count() for h in state.hands}
    if state.phase is not Phase.PLAYING:
        assert sizes == ({5} if state.phase is Phase.BIDDING else {8})


def illegal_samples(
    state: State, rng: random.Random, legal: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    seat = state.turn
    assert seat is not None
    candidates: list[dict[str, Any]] = [
        {"seat": seat, "play": rng.choice(CARD_STR)},
        {"seat": seat, "bid": rng.choice(["pass", "sun", "hokum", "ashkal", "confirm"])},
        {"seat": seat, "double": rng.choice(["double", "triple", "four", "gahwa", "pass"])},
        {"seat": seat, "declare": [{"project": "sira", "cards": rng.sample(CARD_STR, 3)}]},
        {"seat": seat, "sawa": True},
        {"seat": seat, "redeal": True},
    ]
    return [c for c in candidates if c not in legal]


class Recorder:
    """Keeps the decks and actions of a match, as the notation would."""

    def __init__(self, mode: str) -> None:
        self.doc = Document(mode=mode)

    def deal(self, dealer: int, deck: list[str]) -> None:
        self.doc.rounds.append(RoundRecord(dealer=dealer, deck=deck))

    def act(self, action: dict[str, Any]) -> None:
        self.doc.rounds[-1].actions.append(action)


def check_deal_end(state: State, recorder: Recorder, previous_score: tuple[int, int]) -> None:
    text = write_document(recorder.doc)
    again = read_document(text)
    assert write_document(again) == text
    assert replay_document(again) == state
    assert restore(snapshot(state, results_from=0)) == state
    assert restore(snapshot(state), state.results[:-1]) == state
    result = state.results[-1]
    if result.contract is not None:
        total = sum(result.card_points)
        base = 162 if result.contract["type"] == "hokum" else 130
        assert total in (base, base + 90), total
        assert (total == base + 90) == (result.details["sweep"] is not None)
    assert state.score_a >= previous_score[0]
    assert state.score_b >= previous_score[1]


def choose(rng: random.Random, legal: list[dict[str, Any]], cautious: bool) -> dict[str, Any]:
    """Uniform among legal actions; a cautious player mostly passes answers to
    a bid and mostly calls, so Hokum contracts and long multiplier chains get
    played as often as Sun."""
    if cautious and rng.random() < 0.75:
        bids = {a.get("bid") for a in legal}
        if "hokum" in bids:
            return {"seat": legal[0]["seat"], "bid": "hokum"}
        if "pass" in bids:
            return {"seat": legal[0]["seat"], "bid": "pass"}
        if any("double" in a for a in legal):
            calls = [a for a in legal if a.get("double") != "pass"]
            if rng.random() < 0.5 and calls:
                return rng.choice(calls)
    return rng.choice(legal)


def play_match(seed: int, thorough: bool = True) -> State:
    """One random match; with ``thorough`` every invariant at every step."""
    rng = random.Random(seed)
    cautious = seed % 2 == 1
    mode = rng.choice(["classic", "quick"])
    state = new_match(mode, rng.randint(1, 4))
    recorder = Recorder(mode)
    while state.phase is not Phase.MATCH_OVER:
        if state.phase in (Phase.DEALING, Phase.ROUND_OVER):
            deck = random_deck(rng)
            recorder.deal(state.next_dealer, deck)
            before = (state.score_a, state.score_b)
            state = start_deal(state, deck)
            deals_done = len(state.results)
        legal = legal_actions(state)
        assert legal
        assert all(a["seat"] == state.turn for a in legal)
        if thorough:
            check_cards(state)
            check_no_leak(state)
            for action in legal:
                apply(state, action)
            for action in illegal_samples(state, rng, legal):
                try:
                    apply(state, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{action} applied but is not legal")
            other = legal[0]["seat"] % 4 + 1
            try:
                apply(state, {**legal[0], "seat": other})
            except NotYourTurn:
                pass
            else:
                raise AssertionError("a seat acted out of turn")
        action = choose(rng, legal, cautious)
        frozen = snapshot(state, results_from=0)
        after = apply(state, action)
        assert snapshot(state, results_from=0) == frozen, "apply changed its input"
        state = after
        recorder.act(action)
        if len(state.results) > deals_done:
            if thorough:
                check_no_leak(state)
            check_deal_end(state, recorder, before)
    return state
