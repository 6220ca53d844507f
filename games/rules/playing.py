"""Card play: D2-D4 (tricks, following, lock), D21a (Baloot) and D26 (Sawa)."""

from __future__ import annotations

from typing import Any

from .cards import (
    CARD_OF,
    CARD_STR,
    SUIT_MASKS,
    SUIT_NAMES,
    Rank,
    card_points,
    cards_of,
    rank_of,
    strength,
    suit_of,
    trick_winner,
)
from .errors import (
    CardNotInHand,
    InvalidBaloot,
    InvalidSawa,
    LockedLead,
    MustFollowSuit,
    MustTrump,
)
from .sawa import can_claim
from .scoring import LAST_TRICK_BONUS
from .state import State, Trick, team_index

BALOOT_RANKS = (Rank.QUEEN, Rank.KING)


def playable(st: State, seat: int) -> int:
    """The mask of cards the seat may play now (D3, D4)."""
    hand = st.hands[seat - 1]
    trump = st.trump
    if not st.trick:
        if st.lock and trump >= 0:
            others = hand & ~SUIT_MASKS[trump]
            if others:
                return others
        return hand
    follow = hand & SUIT_MASKS[suit_of(st.trick[0][1])]
    if follow:
        return follow
    if trump >= 0:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


def may_announce(st: State, seat: int, card: int) -> bool:
    """D21a: Baloot goes with the trump K or Q, once, by an eligible seat."""
    contract = st.contract
    return (
        contract is not None
        and suit_of(card) == contract.trump
        and rank_of(card) in BALOOT_RANKS
        and bool(st.baloot_ok >> seat & 1)
        and not st.baloot_done >> seat & 1
    )


def sawa_valid(st: State, seat: int) -> bool:
    """D26: the seat on lead surely wins every remaining trick."""
    return not st.trick and can_claim(st.hands, seat, st.trump, st.lock)


def legal(st: State) -> list[dict[str, Any]]:
    """Every card the seat to act may play, with Baloot and Sawa where valid."""
    seat = st.turn
    assert seat is not None
    out: list[dict[str, Any]] = []
    for card in cards_of(playable(st, seat)):
        out.append({"seat": seat, "play": CARD_STR[card]})
        if may_announce(st, seat, card):
            out.append({"seat": seat, "play": CARD_STR[card], "baloot": True})
    if sawa_valid(st, seat):
        out.append({"seat": seat, "sawa": True})
    return out


def forced(st: State) -> dict[str, Any]:
    """D17: the legal card with the fewest points, non-trump first, then the
    lowest in trick order, then suits S, H, D, C."""
    seat = st.turn
    assert seat is not None
    trump = st.trump
    card = min(
        cards_of(playable(st, seat)),
        key=lambda c: (card_points(c, trump), suit_of(c) == trump, strength(c, trump), suit_of(c)),
    )
    return {"seat": seat, "play": CARD_STR[card], "auto": True}


def step(st: State, seat: int, verb: str, action: dict[str, Any]) -> None:
    """Plays a card or claims Sawa in ``st`` (a fresh copy).

    Raises CardNotInHand, MustFollowSuit, MustTrump, LockedLead, InvalidBaloot
    or InvalidSawa.
    """
    if verb == "sawa":
        _claim(st, seat)
        return
    card = CARD_OF[action["play"]]
    hand = st.hands[seat - 1]
    if not hand >> card & 1:
        raise CardNotInHand("You do not hold %(card)s", card=action["play"])
    if not playable(st, seat) >> card & 1:
        _explain_unplayable(st, hand)
    if action.get("baloot"):
        if not may_announce(st, seat, card):
            raise InvalidBaloot(
                "Baloot is announced once, with the trump King or Queen, "
                "by the player who held both outside a declared project"
            )
        st.baloot_done |= 1 << seat
    hands = list(st.hands)
    hands[seat - 1] = hand & ~(1 << card)
    st.hands = (hands[0], hands[1], hands[2], hands[3])
    plays = (*st.trick, (seat, card))
    if len(plays) < 4:
        st.trick = plays
        st.turn = seat % 4 + 1
        return
    trump = st.trump
    winner = trick_winner(plays, trump)
    points = sum(card_points(played, trump) for _, played in plays)
    if len(st.tricks) == 7:
        points += LAST_TRICK_BONUS
    scored = list(st.points)
    scored[team_index(winner)] += points
    st.points = (scored[0], scored[1])
    st.tricks = (*st.tricks, Trick(st.leader, plays, winner))
    st.trick = ()
    st.leader = winner
    st.turn = winner
    if len(st.tricks) == 8:
        st.outcome = "played"


def _explain_unplayable(st: State, hand: int) -> None:
    """Raises the error that says why a held card may not be played: LockedLead,
    MustFollowSuit or MustTrump."""
    trump = st.trump
    if not st.trick:
        raise LockedLead("The game is locked: you may not lead a trump while you hold another suit")
    led = suit_of(st.trick[0][1])
    if hand & SUIT_MASKS[led]:
        raise MustFollowSuit("You must follow %(suit)s", suit=SUIT_NAMES[led])
    raise MustTrump(
        "You cannot follow %(suit)s, so you must trump with %(trump)s",
        suit=SUIT_NAMES[led],
        trump=SUIT_NAMES[trump],
    )


def _claim(st: State, seat: int) -> None:
    """D26: the claimer's team takes every remaining card and the last trick.

    Raises InvalidSawa when a trick is under way or the claim is not sure.
    """
    if st.trick:
        raise InvalidSawa("Sawa is claimed at your turn to lead")
    if not can_claim(st.hands, seat, st.trump, st.lock):
        raise InvalidSawa(
            "Sawa needs a hand that wins every remaining trick whatever the others play"
        )
    trump = st.trump
    remaining = sum(card_points(card, trump) for hand in st.hands for card in cards_of(hand))
    scored = list(st.points)
    scored[team_index(seat)] += remaining + LAST_TRICK_BONUS
    st.points = (scored[0], scored[1])
    st.leader = seat
    st.outcome = "sawa"
