"""Card play: D2-D4 (tricks, following, lock), D21a (Baloot) and D26 (Sawa)."""

from __future__ import annotations

from typing import Any

from .cards import (
    CARD_OF,
    CARD_STR,
    SUIT_MASKS,
    SUIT_NAMES,
    Rank,
    card_at,
    card_points,
    cards_of,
    rank_of,
    strength,
    suit_of,
    trick_points,
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


# The compact form of a play (``engine.legal_moves``): the card int, plus
# BALOOT when it is announced with the card; SAWA for a claim.
BALOOT = 32
SAWA = 64


def moves(st: State) -> list[int]:
    """Every card the seat to act may play, with Baloot and Sawa where valid,
    in the compact form."""
    seat = st.turn
    assert seat is not None
    out: list[int] = []
    announce = _baloot_cards(st, seat)
    mask = playable(st, seat)
    while mask:
        low = mask & -mask
        mask ^= low
        card = low.bit_length() - 1
        out.append(card)
        if low & announce:
            out.append(card | BALOOT)
    if not st.trick:
        trump = st.contract.trump if st.contract else -1
        if can_claim(st.hands, seat, trump, st.lock):
            out.append(SAWA)
    return out


def _baloot_cards(st: State, seat: int) -> int:
    """The mask of cards the seat may announce Baloot with (D21a): the trump
    K and Q while it may still announce, else none; ``may_announce`` card by card."""
    contract = st.contract
    if (
        contract is None
        or contract.trump < 0
        or not st.baloot_ok >> seat & 1
        or st.baloot_done >> seat & 1
    ):
        return 0
    return 1 << card_at(contract.trump, Rank.KING) | 1 << card_at(contract.trump, Rank.QUEEN)


def action(st: State, move: int) -> dict[str, Any]:
    """The notation form of a compact play by the seat to act."""
    if move == SAWA:
        return {"seat": st.turn, "sawa": True}
    if move & BALOOT:
        return {"seat": st.turn, "play": CARD_STR[move & 31], "baloot": True}
    return {"seat": st.turn, "play": CARD_STR[move]}


def legal(st: State) -> list[dict[str, Any]]:
    """Every card the seat to act may play, with Baloot and Sawa where valid."""
    seat = st.turn
    out: list[dict[str, Any]] = []
    for move in moves(st):
        if move == SAWA:
            out.append({"seat": seat, "sawa": True})
        elif move & BALOOT:
            out.append({"seat": seat, "play": CARD_STR[move & 31], "baloot": True})
        else:
            out.append({"seat": seat, "play": CARD_STR[move]})
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
        if st.trick:
            raise InvalidSawa("Sawa is claimed at your turn to lead")
        if not can_claim(st.hands, seat, st.trump, st.lock):
            raise InvalidSawa(
                "Sawa needs a hand that wins every remaining trick whatever the others play"
            )
        _claim(st, seat)
        return
    card = CARD_OF[action["play"]]
    hand = st.hands[seat - 1]
    if not hand >> card & 1:
        raise CardNotInHand("You do not hold %(card)s", card=action["play"])
    trick = st.trick
    # Following the led suit, or leading in an open game, is always allowed;
    # anything else asks D3/D4 in full.
    checked = suit_of(card) != suit_of(trick[0][1]) if trick else st.lock
    if checked and not playable(st, seat) >> card & 1:
        _explain_unplayable(st, hand)
    if action.get("baloot"):
        if not may_announce(st, seat, card):
            raise InvalidBaloot(
                "Baloot is announced once, with the trump King or Queen, "
                "by the player who held both outside a declared project"
            )
        st.baloot_done |= 1 << seat
    _play(st, seat, card)


def do(st: State, seat: int, move: int) -> None:
    """Applies a compact play that ``moves`` offered to ``st`` (a fresh copy),
    checking nothing."""
    if move == SAWA:
        _claim(st, seat)
        return
    if move & BALOOT:
        st.baloot_done |= 1 << seat
        move &= 31
    _play(st, seat, move)


def _play(st: State, seat: int, card: int) -> None:
    """Moves a playable card from the seat's hand to the trick, closing the
    trick (D2) and the deal when it is complete."""
    hands = st.hands
    if seat == 1:
        st.hands = (hands[0] & ~(1 << card), hands[1], hands[2], hands[3])
    elif seat == 2:
        st.hands = (hands[0], hands[1] & ~(1 << card), hands[2], hands[3])
    elif seat == 3:
        st.hands = (hands[0], hands[1], hands[2] & ~(1 << card), hands[3])
    else:
        st.hands = (hands[0], hands[1], hands[2], hands[3] & ~(1 << card))
    plays = (*st.trick, (seat, card))
    if len(plays) < 4:
        st.trick = plays
        st.turn = seat % 4 + 1
        return
    trump = st.trump
    winner = trick_winner(plays, trump)
    points = trick_points(plays, trump)
    if len(st.tricks) == 7:
        points += LAST_TRICK_BONUS
    scored = st.points
    if winner % 2:
        st.points = (scored[0] + points, scored[1])
    else:
        st.points = (scored[0], scored[1] + points)
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
    """D26: the claimer's team takes every remaining card and the last trick."""
    trump = st.trump
    remaining = sum(card_points(card, trump) for hand in st.hands for card in cards_of(hand))
    scored = list(st.points)
    scored[team_index(seat)] += remaining + LAST_TRICK_BONUS
    st.points = (scored[0], scored[1])
    st.leader = seat
    st.outcome = "sawa"
