"""Card play: D2-D4 (tricks, following, lock), D21a (Baloot) and D26 (Sawa)."""

from __future__ import annotations

from .cards import (
    CARD_OF,
    CARD_STR,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    SUIT_SHIFT,
    Rank,
    card_at,
    card_points,
    cards_of,
    rank_of,
    strength,
    suit_of,
    trick_result,
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
from .scoring import LAST_TRICK_BONUS, end_deal
from .shapes import Action
from .state import Draft, Play, State, Trick, team_index

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


def _card_lists(suit: int, baloot: bool) -> tuple[tuple[int, ...], ...]:
    """For every 8-bit pattern of one suit: its cards in ascending order, each
    trump K and Q followed by its Baloot form when ``baloot``."""
    lists = []
    for pattern in range(256):
        out: list[int] = []
        for rank in range(8):
            if pattern >> rank & 1:
                out.append(card_at(suit, rank))
                if baloot and rank in BALOOT_RANKS:
                    out.append(card_at(suit, rank) | BALOOT)
        lists.append(tuple(out))
    return tuple(lists)


# The compact moves of one suit's cards, by suit and 8-bit pattern: without,
# and with the Baloot forms of the K and Q (offered only in the trump suit).
_CARDS = tuple(_card_lists(suit, False) for suit in range(4))
_CARDS_BALOOT = tuple(_card_lists(suit, True) for suit in range(4))


def moves(st: State) -> list[int]:
    """Every card the seat to act may play, with Baloot and Sawa where valid,
    in the compact form (ascending cards, a Baloot form right after its card,
    Sawa last).

    Table-driven: ``scan_moves`` is the card-by-card form a test compares it with.
    """
    seat = st.turn
    assert seat is not None
    hand = st.hands[seat - 1]
    contract = st.contract
    trump = contract.trump if contract is not None else -1
    # The trump suit's lists carry Baloot forms while the seat may announce.
    baloot = trump >= 0 and st.baloot_ok >> seat & 1 and not st.baloot_done >> seat & 1
    trick = st.trick
    if trick:
        led = SUIT_OF[trick[0][1]]
        pattern = hand >> SUIT_SHIFT[led] & 0xFF
        if pattern:
            return list((_CARDS_BALOOT if baloot and led == trump else _CARDS)[led][pattern])
        if trump >= 0:
            pattern = hand >> SUIT_SHIFT[trump] & 0xFF
            if pattern:
                return list((_CARDS_BALOOT if baloot else _CARDS)[trump][pattern])
        return _all_cards(hand, trump if baloot else -1)
    if st.lock and trump >= 0 and hand & ~SUIT_MASKS[trump]:
        out = _all_cards(hand & ~SUIT_MASKS[trump], -1)
    else:
        out = _all_cards(hand, trump if baloot else -1)
    if can_claim(st.hands, seat, trump, st.lock):
        out.append(SAWA)
    return out


def _all_cards(hand: int, baloot_suit: int) -> list[int]:
    """The compact moves of every card of ``hand``, with Baloot forms in ``baloot_suit``."""
    out: list[int] = []
    for suit in (0, 1, 2, 3):
        pattern = hand >> SUIT_SHIFT[suit] & 0xFF
        if pattern:
            out += (_CARDS_BALOOT if suit == baloot_suit else _CARDS)[suit][pattern]
    return out


def scan_moves(st: State) -> list[int]:
    """``moves`` card by card from ``playable`` and ``may_announce``, without
    the tables (kept for the test that proves the tables exact)."""
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


def action(st: State, move: int) -> Action:
    """The notation form of a compact play by the seat to act."""
    seat = st.turn
    assert seat is not None
    if move == SAWA:
        return {"seat": seat, "sawa": True}
    if move & BALOOT:
        return {"seat": seat, "play": CARD_STR[move & ~BALOOT], "baloot": True}
    return {"seat": seat, "play": CARD_STR[move]}


def legal(st: State) -> list[Action]:
    """Every card the seat to act may play, with Baloot and Sawa where valid."""
    seat = st.turn
    assert seat is not None
    out: list[Action] = []
    for move in moves(st):
        if move == SAWA:
            out.append({"seat": seat, "sawa": True})
        elif move & BALOOT:
            out.append({"seat": seat, "play": CARD_STR[move & ~BALOOT], "baloot": True})
        else:
            out.append({"seat": seat, "play": CARD_STR[move]})
    return out


def forced(st: State) -> Action:
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


def step(st: Draft, seat: int, verb: str, action: Action) -> None:
    """Plays a card or claims Sawa in ``st`` (a Draft).

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
    checked = SUIT_OF[card] != SUIT_OF[trick[0][1]] if trick else st.lock
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


def do(st: Draft, seat: int, move: int) -> None:
    """Applies a compact play that ``moves`` offered to ``st`` (a Draft),
    checking nothing."""
    if move == SAWA:
        _claim(st, seat)
        return
    if move & BALOOT:
        st.baloot_done |= 1 << seat
        move &= ~BALOOT
    _play(st, seat, move)


def _play(st: Draft, seat: int, card: int) -> None:
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
    trick = st.trick
    if len(trick) < 3:
        st.trick = (*trick, (seat, card))
        st.turn = seat % 4 + 1
    else:
        _close_trick(st, (*trick, (seat, card)))


def _close_trick(st: Draft, plays: tuple[Play, ...]) -> None:
    """Scores a trick of four plays (D1, D2) and hands the lead to its winner;
    the eighth trick ends the deal."""
    contract = st.contract
    assert contract is not None
    winner, points = trick_result(plays, contract.trump)
    tricks = st.tricks
    if len(tricks) == 7:
        points += LAST_TRICK_BONUS
        st.outcome = "played"
    scored = st.points
    if winner & 1:
        st.points = (scored[0] + points, scored[1])
    else:
        st.points = (scored[0], scored[1] + points)
    st.tricks = (*tricks, Trick(st.leader, plays, winner))
    st.trick = ()
    st.leader = winner
    st.turn = winner


def play_card(state: State, card: int) -> State:
    """``engine.apply_move`` for a card played without Baloot: the new state,
    built straight from ``state`` (the most common action, so each field is
    written once instead of copied, then changed), the deal scored if it ends."""
    seat: int = state.turn  # type: ignore[assignment]  # someone is always to play
    new = _blank(Draft)
    hands = state.hands
    if seat == 1:
        new.hands = (hands[0] & ~(1 << card), hands[1], hands[2], hands[3])
    elif seat == 2:
        new.hands = (hands[0], hands[1] & ~(1 << card), hands[2], hands[3])
    elif seat == 3:
        new.hands = (hands[0], hands[1], hands[2] & ~(1 << card), hands[3])
    else:
        new.hands = (hands[0], hands[1], hands[2], hands[3] & ~(1 << card))
    new.deal_actions = (*state.deal_actions, {"seat": seat, "play": CARD_STR[card]})
    # What card play never changes (Draft.of's other fields).
    new.phase = state.phase
    new.contract = state.contract
    new.lock = state.lock
    new.baloot_ok = state.baloot_ok
    new.baloot_done = state.baloot_done
    new.acted = state.acted
    new.bid_round = state.bid_round
    new.bid_stage = state.bid_stage
    new.calls = state.calls
    new.declared = state.declared
    new.pending = state.pending
    new.outcome = state.outcome
    new._setup = state._setup
    trick = state.trick
    if len(trick) < 3:
        new.trick = (*trick, (seat, card))
        new.turn = seat % 4 + 1
        new.leader = state.leader
        new.tricks = state.tricks
        new.points = state.points
        # Draft.freeze without its setup check: nothing above writes the setup.
        new.__class__ = State  # type: ignore[assignment]  # Draft.freeze, see above
        return new
    new.tricks = state.tricks
    new.points = state.points
    new.leader = state.leader
    _close_trick(new, (*trick, (seat, card)))
    if new.outcome is None:
        new.__class__ = State  # type: ignore[assignment]  # as above
        return new
    end_deal(new)
    return new.freeze()


_blank = object.__new__


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


def _claim(st: Draft, seat: int) -> None:
    """D26: the claimer's team takes every remaining card and the last trick."""
    trump = st.trump
    remaining = sum(card_points(card, trump) for hand in st.hands for card in cards_of(hand))
    scored = list(st.points)
    scored[team_index(seat)] += remaining + LAST_TRICK_BONUS
    st.points = (scored[0], scored[1])
    st.leader = seat
    st.outcome = "sawa"
