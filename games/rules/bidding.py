"""The bidding phase: D7-D12 (and D5 for the top-up once a contract is made).

Stages: an ordinary turn (OPEN), the replies to a Hokum (HOKUM_REPLY), the
Hokum bidder's switch-or-confirm (HOKUM_CHOICE) and the answer to an Ashkal
(ASHKAL_REPLY). Turn order is P1..P4 from the dealer's right.
"""

from __future__ import annotations

from .cards import SUITS, Suit, suit_of
from .errors import InvalidBid, InvalidRedeal
from .shapes import Action
from .state import ASHKAL_REPLY, HOKUM_CHOICE, HOKUM_REPLY, OPEN, Contract, Draft, Phase, State

# D7: a hand whose first five cards are all 7, 8 or 9 is worth nothing.
ZERO_POINT_MASK = 0x07070707


def may_redeal(st: State, seat: int) -> bool:
    """D7: a zero-point five-card hand, at that seat's first turn of round one."""
    return (
        st.bid_round == 1
        and not st.acted >> seat & 1
        and st.dealt[seat - 1] & ~ZERO_POINT_MASK == 0
    )


# The compact form of a bid (``engine.legal_moves``).
PASS, SUN, HOKUM, ASHKAL, CONFIRM = range(5)
CONFIRM_TRUMP = 5  # plus the suit index: a Second Hokum confirmed in that suit
REDEAL = 9
_BID_WORDS = ("pass", "sun", "hokum", "ashkal", "confirm")


def moves(st: State) -> list[int]:
    """The bids open to the seat to act, in the compact form."""
    seat = st.turn
    assert seat is not None
    stage = st.bid_stage
    if stage == HOKUM_CHOICE:
        if st.bid_round == 1:
            return [SUN, CONFIRM]
        faceup_suit = suit_of(st.faceup)
        return [SUN, *(CONFIRM_TRUMP + suit for suit in Suit if suit != faceup_suit)]
    out = [PASS, SUN]
    if stage == OPEN:
        out.append(HOKUM)
    if stage != ASHKAL_REPLY and st.position(seat) >= 3:
        out.append(ASHKAL)
    if may_redeal(st, seat):
        out.append(REDEAL)
    return out


def action(st: State, move: int) -> Action:
    """The notation form of a compact bid by the seat to act."""
    seat = st.turn
    assert seat is not None
    if move == REDEAL:
        return {"seat": seat, "redeal": True}
    if move >= CONFIRM_TRUMP:
        return {"seat": seat, "bid": "confirm", "trump": SUITS[move - CONFIRM_TRUMP]}
    return {"seat": seat, "bid": _BID_WORDS[move]}


def legal(st: State) -> list[Action]:
    """The bids open to the seat to act."""
    return [action(st, move) for move in moves(st)]


def forced(st: State) -> Action:
    """D17: Pass where it is an option, else the Hokum bidder confirms."""
    seat = st.turn
    assert seat is not None
    if st.bid_stage != HOKUM_CHOICE:
        return {"seat": seat, "bid": "pass", "auto": True}
    if st.bid_round == 1:
        return {"seat": seat, "bid": "confirm", "auto": True}
    trump = next(s for s in Suit if s != suit_of(st.faceup))
    return {"seat": seat, "bid": "confirm", "trump": SUITS[trump], "auto": True}


def step(st: Draft, seat: int, verb: str, action: Action) -> None:
    """Applies a bid or a redeal request to ``st`` (a Draft).

    Raises InvalidRedeal or InvalidBid.
    """
    do(st, seat, _check(st, seat, verb, action))


def _check(st: State, seat: int, verb: str, action: Action) -> int:
    """The compact form of a bid; raises InvalidRedeal or InvalidBid saying why
    it is not open to the seat."""
    if verb == "redeal":
        if not may_redeal(st, seat):
            if st.bid_round != 1 or st.acted >> seat & 1:
                raise InvalidRedeal(
                    "A redeal may only be asked at your first turn of the first bidding round"
                )
            raise InvalidRedeal("Only a hand of five 7s, 8s and 9s may ask for a redeal")
        return REDEAL
    bid = action["bid"]
    stage = st.bid_stage
    if stage == HOKUM_CHOICE:
        return _check_choice(st, bid, action)
    if bid == "confirm":
        raise InvalidBid("Only the Hokum bidder confirms, once everyone has answered")
    if bid == "sun":
        return SUN
    if bid == "ashkal":
        if stage == ASHKAL_REPLY:
            raise InvalidBid("Answer an Ashkal with Sun or Pass")
        if st.position(seat) < 3:
            raise InvalidBid("Only the dealer or the player on the dealer's left may call Ashkal")
        return ASHKAL
    if bid == "hokum":
        if stage != OPEN:
            raise InvalidBid("A Hokum cannot be answered with another Hokum")
        return HOKUM
    return PASS


def _check_choice(st: State, bid: str, action: Action) -> int:
    """D10: the Hokum bidder, unanswered, switches to Sun or confirms Hokum;
    raises InvalidBid for anything else."""
    if bid == "sun":
        if "trump" in action:
            raise InvalidBid("A trump suit is chosen only when confirming a Second Hokum")
        return SUN
    if bid != "confirm":
        raise InvalidBid("Everyone passed: choose Sun or confirm your Hokum")
    faceup_suit = suit_of(st.faceup)
    if st.bid_round == 1:
        if "trump" in action:
            raise InvalidBid("In the first round the trump is the face-up card's suit")
        return CONFIRM
    if "trump" not in action:
        raise InvalidBid("Choose the trump suit for your Second Hokum")
    trump = SUITS.index(action["trump"])
    if trump == faceup_suit:
        raise InvalidBid("A Second Hokum cannot be in the face-up card's suit")
    return CONFIRM_TRUMP + trump


def do(st: Draft, seat: int, move: int) -> None:
    """Applies a compact bid that ``moves`` offered to ``st`` (a Draft),
    checking nothing."""
    if move == REDEAL:
        st.redeal_seat = seat
        st.outcome = "redeal"
        return
    stage = st.bid_stage
    if st.bid_round == 1:
        st.acted |= 1 << seat
    if stage == HOKUM_CHOICE:
        if move == SUN:
            finish(st, "sun", -1, seat, seat)
        elif move == CONFIRM:
            finish(st, "hokum", suit_of(st.faceup), seat, seat)
        else:
            finish(st, "hokum", move - CONFIRM_TRUMP, seat, seat)
        return
    if move == SUN:
        finish(st, "sun", -1, seat, seat)
    elif move == ASHKAL:
        st.ashkal_caller = seat
        st.bid_stage = ASHKAL_REPLY
        st.turn = (seat - 2) % 4 + 1
    elif move == HOKUM:
        st.hokum_bidder = seat
        st.bid_stage = HOKUM_REPLY
        st.pending = (seat % 4 + 1, (seat + 1) % 4 + 1, (seat + 2) % 4 + 1)
        st.turn = st.pending[0]
    elif stage == ASHKAL_REPLY:
        # D11: a pass leaves the Ashkal standing; the caller's partner takes the card.
        caller = st.ashkal_caller
        finish(st, "ashkal", -1, caller, (caller + 1) % 4 + 1)
    elif stage == HOKUM_REPLY:
        st.pending = st.pending[1:]
        if st.pending:
            st.turn = st.pending[0]
        else:
            st.bid_stage = HOKUM_CHOICE
            st.turn = st.hokum_bidder
    elif seat != st.dealer:
        st.turn = seat % 4 + 1
    elif st.bid_round == 1:
        # D12: four passes start the second round with P1.
        st.bid_round = 2
        st.turn = st.first
    else:
        st.outcome = "all_passed"


def finish(st: Draft, kind: str, trump: int, bidder: int, taker: int) -> None:
    """Settles the contract, deals the remaining cards (D5) and moves on."""
    st.contract = Contract(kind, trump, bidder, taker, st.bid_round)
    deck = st.deck
    hands = list(st.hands)
    dealt = list(st.dealt)
    index = 21
    for seat in st.order():
        count = 2 if seat == taker else 3
        extra = 0
        for card in deck[index : index + count]:
            extra |= 1 << card
        if seat == taker:
            extra |= 1 << st.faceup
        index += count
        hands[seat - 1] |= extra
        dealt[seat - 1] |= extra
    st.hands = (hands[0], hands[1], hands[2], hands[3])
    st.dealt = (dealt[0], dealt[1], dealt[2], dealt[3])
    st.bid_stage = OPEN
    st.pending = ()
    defenders_score = st.score_b if bidder % 2 else st.score_a
    if kind == "hokum" or (st.bid_round == 1 and defenders_score > 100):
        # D13/D14: the defenders are asked first, in turn order after the bidder.
        st.phase = Phase.DOUBLING
        st.pending = (bidder % 4 + 1, (bidder + 2) % 4 + 1)
        st.turn = st.pending[0]
    else:
        start_declaring(st)


def start_declaring(st: Draft) -> None:
    """D18: every seat declares once, in turn order from P1."""
    st.phase = Phase.DECLARING
    st.pending = ()
    st.turn = st.first
