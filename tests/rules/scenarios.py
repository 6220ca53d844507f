"""Hand-checked scenario building for the rules tests.

Decks are built from the hands the test wants, following notation.md
("Dealing from deck"): cards 0-11 three to each seat, cards 12-19 two to each
seat, card 20 face up, cards 21-31 three to each seat but the taker, who gets
two, always in seat order starting from the seat after the dealer. Hands are
written by *position* (P1..P4 counted from the dealer's right, P4 being the
dealer, as in rules-decisions.md) so one template serves any dealer.

Nothing here computes a rule: expected figures live in the tests as literals.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import games.rules as rules

Action = dict[str, Any]
SUITS = "SHDC"
RANKS = "789TJQKA"
ALL_CARDS = tuple(r + s for s in SUITS for r in RANKS)


def seat_of(dealer: int, position: int) -> int:
    """The seat at position P1..P4 for this dealer (P4 is the dealer)."""
    return (dealer + position - 1) % 4 + 1


def turn_order(dealer: int) -> list[int]:
    """Seats in turn order for a deal: the seat after the dealer first, the dealer last."""
    return [seat_of(dealer, p) for p in (1, 2, 3, 4)]


def team(seat: int) -> str:
    """Team A is seats 1 and 3, team B seats 2 and 4 (notation.md)."""
    return "A" if seat % 2 == 1 else "B"


def make_deck(
    dealer: int,
    first_five: Mapping[int, Sequence[str]],
    faceup: str,
    top_up: Mapping[int, Sequence[str]],
    taker: int,
) -> list[str]:
    """Lay out a deck exactly as notation.md deals it (seats, not positions)."""
    order = turn_order(dealer)
    deck: list[str] = []
    for seat in order:
        deck += list(first_five[seat][:3])
    for seat in order:
        deck += list(first_five[seat][3:5])
    deck.append(faceup)
    for seat in order:
        wanted = 2 if seat == taker else 3
        if len(top_up[seat]) != wanted:
            raise ValueError(f"seat {seat} needs {wanted} top-up cards")
        deck += list(top_up[seat])
    if sorted(deck) != sorted(ALL_CARDS):
        raise ValueError(f"not a 32-card deck: {deck}")
    return deck


def dealt_hands(dealer: int, deck: Sequence[str], taker: int) -> dict[int, list[str]]:
    """Read a deck back into the final 8-card hands, following notation.md."""
    order = turn_order(dealer)
    hands: dict[int, list[str]] = {seat: [] for seat in order}
    for i, seat in enumerate(order):
        hands[seat] += deck[3 * i : 3 * i + 3]
    for i, seat in enumerate(order):
        hands[seat] += deck[12 + 2 * i : 14 + 2 * i]
    hands[taker].append(deck[20])
    at = 21
    for seat in order:
        n = 2 if seat == taker else 3
        hands[seat] += deck[at : at + n]
        at += n
    return hands


@dataclass(frozen=True)
class Deal:
    """One deal: the deck and the hands it produces for a known taker."""

    dealer: int
    hands: dict[int, tuple[str, ...]]
    faceup: str
    taker: int
    deck: tuple[str, ...]

    def owner(self, card: str) -> int:
        """The seat holding ``card``."""
        for seat, hand in self.hands.items():
            if card in hand:
                return seat
        raise KeyError(card)

    def seat(self, position: int) -> int:
        """The seat at position P1..P4."""
        return seat_of(self.dealer, position)


def deal(dealer: int, hands: Mapping[int, str], faceup: str, taker_position: int) -> Deal:
    """A deal from 8-card hands written by position ("AS TS ...").

    The first five cards listed (the face-up card skipped for the taker) are
    the seat's first five; the rest are its top-up.
    """
    taker = seat_of(dealer, taker_position)
    by_seat: dict[int, tuple[str, ...]] = {}
    first: dict[int, list[str]] = {}
    rest: dict[int, list[str]] = {}
    for position, text in hands.items():
        seat = seat_of(dealer, position)
        cards = tuple(text.split())
        if len(cards) != 8:
            raise ValueError(f"P{position} holds {len(cards)} cards")
        by_seat[seat] = cards
        own = [c for c in cards if not (seat == taker and c == faceup)]
        first[seat] = own[:5]
        rest[seat] = own[5:]
    if faceup not in by_seat[taker]:
        raise ValueError("the taker's hand must include the face-up card")
    deck = make_deck(dealer, first, faceup, rest, taker)
    return Deal(dealer, by_seat, faceup, taker, tuple(deck))


def fill_deal(
    dealer: int,
    fixed: Mapping[int, str],
    faceup: str,
    taker_position: int,
    void: Mapping[int, str] | None = None,
) -> Deal:
    """A deal where only some cards matter: ``fixed`` cards by position, the
    rest handed out in a fixed order, never in a position's ``void`` suits."""
    void = dict(void or {})
    hands: dict[int, list[str]] = {p: list(fixed.get(p, "").split()) for p in (1, 2, 3, 4)}
    used = {c for h in hands.values() for c in h}
    spare = [c for c in ALL_CARDS if c not in used]

    def feasible(i: int) -> bool:
        # Hall's condition over sets of suits: the cards left in those suits
        # must fit in the room of the positions taking at least one of them.
        left = spare[i:]
        for size in range(1, 5):
            for group in itertools.combinations(SUITS, size):
                need = sum(1 for c in left if c[1] in group)
                room = sum(
                    8 - len(hands[p])
                    for p in hands
                    if any(suit not in void.get(p, "") for suit in group)
                )
                if need > room:
                    return False
        return True

    def place(i: int) -> bool:
        if i == len(spare):
            return True
        card = spare[i]
        for p in sorted(hands, key=lambda p: (-len(void.get(p, "")), p)):
            if len(hands[p]) < 8 and card[1] not in void.get(p, ""):
                hands[p].append(card)
                if feasible(i + 1) and place(i + 1):
                    return True
                hands[p].pop()
        return False

    if not place(0):
        raise ValueError("cannot fill these hands")
    return deal(dealer, {p: " ".join(h) for p, h in hands.items()}, faceup, taker_position)


# --- notation actions -------------------------------------------------------


def bid(seat: int, value: str, trump: str | None = None) -> Action:
    """A ``bid`` action (with ``trump`` for a second-round confirm)."""
    action: Action = {"seat": seat, "bid": value}
    if trump is not None:
        action["trump"] = trump
    return action


def call(seat: int, value: str, lock: bool | None = None) -> Action:
    """A multiplier call (``double`` verb)."""
    action: Action = {"seat": seat, "double": value}
    if lock is not None:
        action["lock"] = lock
    return action


def declare(seat: int, *projects: tuple[str, str]) -> Action:
    """A declaration: ``("sira", "7S 8S 9S")`` per project."""
    return {
        "seat": seat,
        "declare": [{"project": p, "cards": cards.split()} for p, cards in projects],
    }


def play(seat: int, card: str, baloot: bool = False) -> Action:
    """A card play, with the Baloot announcement when asked."""
    action: Action = {"seat": seat, "play": card}
    if baloot:
        action["baloot"] = True
    return action


def sawa(seat: int) -> Action:
    """A Sawa claim."""
    return {"seat": seat, "sawa": True}


def redeal(seat: int) -> Action:
    """A zero-point redeal request."""
    return {"seat": seat, "redeal": True}


def no_declarations(dealer: int) -> list[Action]:
    """Every seat declares nothing, in turn order."""
    return [declare(s) for s in turn_order(dealer)]


def declarations(dealer: int, by_seat: Mapping[int, Sequence[tuple[str, str]]]) -> list[Action]:
    """Every seat declares in turn order; seats not named declare nothing."""
    return [declare(s, *by_seat.get(s, ())) for s in turn_order(dealer)]


def plays(d: Deal, tricks: Sequence[str], baloot: Iterable[str] = ()) -> list[Action]:
    """Card plays from tricks written in play order; the owner comes from the deal."""
    announce = set(baloot)
    out: list[Action] = []
    for trick in tricks:
        for card in trick.split():
            out.append(play(d.owner(card), card, card in announce))
    return out


def sweep_tricks(d: Deal, lead_position: int = 1) -> list[str]:
    """Tricks for the one-suit-per-hand deals: the leader plays its cards in
    the order held, the others follow with theirs in the order held."""
    leader = d.seat(lead_position)
    order = [(leader - 1 + k) % 4 + 1 for k in range(4)]
    return [" ".join(d.hands[s][i] for s in order) for i in range(8)]


# --- driving the engine -----------------------------------------------------


def start(d: Deal, mode: str = "classic", state: Any = None) -> Any:
    """Deal ``d`` in a new match (or after ``state``)."""
    if state is None:
        state = rules.new_match(mode=mode, dealer=d.dealer)
    assert state.next_dealer == d.dealer
    return rules.start_deal(state, list(d.deck))


def run(state: Any, actions: Iterable[Action]) -> Any:
    """Apply actions one by one."""
    for action in actions:
        state = rules.apply(state, action)
    return state


def last(state: Any) -> dict[str, Any]:
    """The notation ``score`` object of the last finished deal."""
    result: dict[str, Any] = state.results[-1].to_json()
    return result


def document(mode: str, rounds: Sequence[tuple[Deal, Sequence[Action]]]) -> dict[str, Any]:
    """A baloot/1 document from deals and their actions."""
    return {
        "notation": "baloot/1",
        "mode": mode,
        "rounds": [
            {"dealer": d.dealer, "deck": list(d.deck), "actions": list(actions)}
            for d, actions in rounds
        ],
    }


def replay(doc: Mapping[str, Any], allow_unfinished: bool = False) -> Any:
    """Read and replay a document through the public notation functions."""
    return rules.replay_document(
        rules.read_document(json.dumps(doc)), allow_unfinished=allow_unfinished
    )


def canon(value: Any) -> str:
    """A canonical text for a JSON value, lists taken without order."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k!r}:{canon(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, list):
        return "[" + ",".join(sorted(canon(v) for v in value)) + "]"
    return repr(value)


def freeze(value: Any) -> Any:
    """A hashable, order-free form of an action (lists compared as multisets:
    a project declared twice stays twice)."""
    return canon(value)


def legal(state: Any) -> set[Any]:
    """The legal actions as a set of frozen actions."""
    return {freeze(a) for a in rules.legal_actions(state)}


def frozen(actions: Iterable[Action]) -> set[Any]:
    """Expected actions in the form ``legal`` returns."""
    return {freeze(a) for a in actions}


def legal_plays(state: Any) -> set[str]:
    """The cards the seat to act may play (Baloot variants folded in)."""
    return {a["play"] for a in rules.legal_actions(state) if "play" in a}


def low_play(state: Any) -> Action:
    """The seat to act plays its legal card lowest in ALL_CARDS order."""
    options = [a for a in rules.legal_actions(state) if "play" in a and "baloot" not in a]
    return dict(min(options, key=lambda a: ALL_CARDS.index(a["play"])))


def hand(state: Any, seat: int) -> set[str]:
    """The seat's hand as its own view shows it."""
    return set(rules.view_for(state, seat)["hand"])


def finish(state: Any) -> Any:
    """Play the deal out with a fixed, engine-independent choice: the legal
    card lowest in ALL_CARDS order, never announcing Baloot or Sawa."""
    while state.phase == rules.Phase.PLAYING:
        state = rules.apply(state, low_play(state))
    return state
