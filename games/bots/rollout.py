"""Monte Carlo evaluation of the decisions before the first card (strong level).

The strong bot bids, doubles and declares by trying each legal action on
deals it draws itself: the cards it cannot see are dealt at random around
what it knows (its own cards, the face-up card and who took it, the public
bids, calls and declared project types), the public actions of the deal so
far are replayed on that deal, the action is applied, and the rest of the
deal is played out quickly by every seat (``easy`` bidding, calls and
declarations, and a fast card player with the easy bot's habits that looks
only at its own hand and the cards played). Every action is tried on the
same deals, so the luck of the draw cancels between them; the action with
the best mean game points for the bot's team (its points minus the other
team's) wins. The deals are the bot's guesses: nothing here reads a hand
the seat does not hold.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from games import rules
from games.rules import solver
from games.rules.cards import (
    CARD_STR,
    PLAIN_BEST,
    PLAIN_STRENGTH,
    TRUMP_BEST,
    TRUMP_STRENGTH,
    card_points,
    cards_of,
)

from .bidding import bid
from .declaring import declare
from .doubling import call

View = dict[str, Any]
History = dict[str, Any]

_EASY: dict[str, Callable[[View], dict[str, Any]]] = {
    "bidding": bid,
    "doubling": call,
    "declaring": declare,
}
# Card points by card for each trump (index trump + 1; 0 is Sun).
_POINTS = tuple(tuple(card_points(c, t) for c in range(32)) for t in (-1, 0, 1, 2, 3))
# Trick power by card for each trump: a trump's strength plus 100, a plain card's strength.
_POWER = tuple(
    tuple(100 + TRUMP_STRENGTH[c & 7] if c >> 3 == t else PLAIN_STRENGTH[c & 7] for c in range(32))
    for t in (-1, 0, 1, 2, 3)
)


def evaluate(
    view: View,
    history: History,
    candidates: list[dict[str, Any]],
    deadline: float,
    rng: random.Random,
    max_deals: int,
) -> list[list[int]]:
    """For each candidate action, the game points (bot's team minus the other
    team) it brought on each of the same random deals.

    Stops at ``deadline`` (a ``time.perf_counter()`` value) or after
    ``max_deals`` deals; a deal on which the public actions cannot be replayed
    is drawn again.
    """
    seat = view["seat"]
    team = (seat - 1) % 2
    outcomes: list[list[int]] = [[] for _ in candidates]
    deals = failures = 0
    while deals < max_deals and failures < max_deals and time.perf_counter() < deadline:
        start = _deal(view, history, rng)
        if start is None:
            failures += 1
            continue
        results: list[int] = []
        for action in candidates:
            if time.perf_counter() > deadline:
                return outcomes
            try:
                points = _play_out(rules.apply(start, action))
            except rules.IllegalAction:
                results = []
                break
            results.append(points[team] - points[1 - team])
        if not results:
            failures += 1
            continue
        for k, value in enumerate(results):
            outcomes[k].append(value)
        deals += 1
    return outcomes


def _deal(view: View, history: History, rng: random.Random) -> rules.State | None:
    """A random deal fitting what the seat knows, replayed to the present; None
    when the public actions do not replay on it."""
    seat = view["seat"]
    dealer = view["dealer"]
    faceup = history.get("faceup") or view.get("faceup")
    if not faceup:
        return None
    mine = list(view["hand"])
    order = [(dealer + i) % 4 + 1 for i in range(4)]
    contract = view["contract"]
    unseen = [c for c in CARD_STR if c not in mine and c != faceup]
    rng.shuffle(unseen)
    if contract is None:
        # Bidding: five cards each, the face-up card, eleven still in the deck.
        hands: dict[int, list[str]] = {}
        for s in order:
            hands[s] = mine if s == seat else [unseen.pop() for _ in range(5)]
        deck: list[str] = []
        for s in order:
            deck += hands[s][:3]
        for s in order:
            deck += hands[s][3:5]
        deck.append(faceup)
        deck += unseen
    else:
        taker = int(contract["taker"])
        hands = {}
        for s in order:
            if s == seat:
                hands[s] = mine
            else:
                size = 7 if s == taker else 8
                hands[s] = [unseen.pop() for _ in range(size)]
                if s == taker:
                    hands[s].append(faceup)
        try:
            deck = rules.deck_from_hands(dealer, hands, faceup, taker)
        except ValueError:
            return None
    state = rules.start_deal(rules.new_match(view["mode"], dealer=dealer), deck)
    try:
        state = _replay_public(state, view)
    except (rules.IllegalAction, LookupError):
        return None
    if state.turn != seat or state.phase.value != view["phase"]:
        return None
    return state


def _replay_public(state: rules.State, view: View) -> rules.State:
    """``state`` after the deal's public actions so far: bids, calls, declarations.

    Raises IllegalAction or LookupError when they do not fit this deal.
    """
    for b in view["bids"]:
        action: dict[str, Any] = {"seat": b["seat"], "bid": b["bid"]}
        if b.get("trump"):
            action["trump"] = b["trump"]
        state = rules.apply(state, action)
    contract = view["contract"]
    calls = list(view.get("calls") or [])
    raised = [k for k, c in enumerate(calls) if c["call"] != "pass"]
    for k, c in enumerate(calls):
        # Each raise chooses open or locked; only the last one's choice shows.
        lock = bool(contract and contract.get("lock")) and bool(raised) and k == raised[-1]
        options = [
            a
            for a in rules.legal_actions(state)
            if a.get("double") == c["call"] and a["seat"] == c["seat"]
        ]
        if not options:
            raise LookupError("a call does not replay")
        state = rules.apply(
            state, next((a for a in options if a.get("lock", False) == lock), options[0])
        )
    declared = view.get("declarations") or {}
    seat = view["seat"]
    while state.phase is rules.Phase.DECLARING and state.turn != seat:
        public = declared.get(str(state.turn))
        if public is None:
            raise LookupError("a declaration does not replay")
        state = rules.apply(state, _like_declared(state, {"seat": state.turn, "declare": public}))
    return state


def _like_declared(state: rules.State, public: dict[str, Any]) -> dict[str, Any]:
    """A legal declaration of the seat in this deal whose project types match the
    public ones, or the easy bot's choice when none does."""
    kinds = sorted(p["project"] for p in public["declare"])
    legal = rules.legal_actions(state)
    for action in legal:
        if sorted(p["project"] for p in action.get("declare", [])) == kinds:
            return action
    return declare(rules.view_for(state, public["seat"]))


def _play_out(state: rules.State) -> tuple[int, int]:
    """The game points (A, B) of the deal played out from ``state``."""
    while state.phase in (rules.Phase.BIDDING, rules.Phase.DOUBLING, rules.Phase.DECLARING):
        seat = state.turn
        assert seat is not None
        action = _EASY[state.phase.value](rules.view_for(state, seat))
        state = rules.apply(state, action)
    while state.phase is rules.Phase.PLAYING:
        state = rules.apply_trusted(state, _fast_card(state))
    if not state.results:
        return 0, 0
    result = state.results[-1]
    return result.points[0], result.points[1]


def _fast_card(state: rules.State) -> dict[str, Any]:
    """The easy bot's habits on the cards alone: cash a card nothing left beats,
    else lead low from the longest suit; win a trick cheaply, feed the
    partner's, else throw the cheapest card."""
    seat = state.turn
    assert seat is not None
    trump = state.trump
    hand = state.hands[seat - 1]
    trick = state.trick
    cards = cards_of(solver.legal_cards(hand, trick, trump, state.lock))
    if len(cards) == 1:
        return {"seat": seat, "play": CARD_STR[cards[0]]}
    points = _POINTS[trump + 1]
    power = _POWER[trump + 1]
    if not trick:
        held = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
        outside = held & ~hand
        best_out = [
            (TRUMP_BEST if s == trump else PLAIN_BEST)[outside >> (8 * s) & 0xFF] for s in range(4)
        ]
        contract = state.contract
        if trump >= 0 and contract is not None and (contract.bidder - seat) % 2 == 0:
            trumps = [c for c in cards if c >> 3 == trump]
            if trumps and best_out[trump] >= 0:
                top = max(trumps, key=power.__getitem__)
                if power[top] - 100 > best_out[trump]:
                    return {"seat": seat, "play": CARD_STR[top]}
        masters = [c for c in cards if c >> 3 != trump and power[c] > best_out[c >> 3]]
        if masters:
            card = max(masters, key=points.__getitem__)
            return {"seat": seat, "play": CARD_STR[card]}
        plain = [c for c in cards if c >> 3 != trump] or cards
        lengths = [(hand >> (8 * s) & 0xFF).bit_count() for s in range(4)]
        card = min(plain, key=lambda c: (-lengths[c >> 3], power[c]))
        return {"seat": seat, "play": CARD_STR[card]}
    led = trick[0][1] >> 3
    top_seat, top_card = trick[0]
    top_power = power[top_card]
    for s, c in trick[1:]:
        if (c >> 3 == led or c >> 3 == trump) and power[c] > top_power:
            top_seat, top_card, top_power = s, c, power[c]
    winning = [c for c in cards if (c >> 3 == led or c >> 3 == trump) and power[c] > top_power]
    losing = [c for c in cards if c not in winning]

    def cost(c: int) -> tuple[int, bool, int]:
        return points[c], c >> 3 == trump, power[c]

    if (top_seat - seat) % 2 == 0:
        if len(trick) == 3 and losing:
            plain = [c for c in losing if c >> 3 != trump]
            if plain:
                card = max(plain, key=lambda c: (points[c], -power[c]))
                return {"seat": seat, "play": CARD_STR[card]}
        return {"seat": seat, "play": CARD_STR[min(losing or cards, key=cost)]}
    if not winning:
        return {"seat": seat, "play": CARD_STR[min(cards, key=cost)]}
    lowest = min(winning, key=power.__getitem__)
    if lowest >> 3 == trump and led != trump and losing:
        on_table = sum(points[c] for _, c in trick)
        if on_table < 10 and points[lowest] > 4:
            return {"seat": seat, "play": CARD_STR[min(losing, key=cost)]}
    return {"seat": seat, "play": CARD_STR[lowest]}
