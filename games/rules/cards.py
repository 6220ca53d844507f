"""Cards, suits and ranks, encoded compactly for speed.

A card is an int ``suit * 8 + rank`` where ranks run in the natural order
``7 8 9 T J Q K A`` (0..7) and suits in the order ``S H D C`` (0..3); a hand is
a 32-bit mask of such cards. Strings use the notation's two-character form
(``"TH"`` is the ten of hearts, ``notation.md``: Cards).

Card points follow D1 and trick order D2 of ``rules-decisions.md``.
"""

from __future__ import annotations

from enum import IntEnum

RANKS = "789TJQKA"
SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


class Suit(IntEnum):
    """The four suits, in the tie-break order S, H, D, C (D17)."""

    S = 0
    H = 1
    D = 2
    C = 3


class Rank(IntEnum):
    """Ranks in the natural order used for runs (D19)."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7


# The card encoding is spelt out in these four helpers alone; the rest of
# the engine asks them (or, in its hottest loops, the tables below made from
# them) instead of shifting and masking card ints itself.


def suit_of(card: int) -> int:
    """The suit index of a card."""
    return card >> 3


def rank_of(card: int) -> int:
    """The natural rank index of a card."""
    return card & 7


def card_at(suit: int, rank: int) -> int:
    """The card of that suit and natural rank."""
    return suit * 8 + rank


def suit_pattern(hand: int, suit: int) -> int:
    """The 8-bit pattern of the ranks a hand holds in one suit (bit r = rank r)."""
    return hand >> card_at(suit, 0) & 0xFF


ALL_CARDS = tuple(range(32))
FULL_MASK = (1 << 32) - 1
# ``suit_of`` and ``rank_of`` of every card, by card: for the loops that run
# at every node of a search, where a table costs less than a call.
SUIT_OF = tuple(suit_of(c) for c in ALL_CARDS)
RANK_OF = tuple(rank_of(c) for c in ALL_CARDS)
# Where each suit's 8-bit pattern starts in a hand mask, by suit index:
# ``hand >> SUIT_SHIFT[suit] & 0xFF`` is ``suit_pattern(hand, suit)`` without the call.
SUIT_SHIFT = tuple(card_at(s, 0) for s in range(4))
# The mask of every card of one suit, by suit index.
SUIT_MASKS = tuple(0xFF << SUIT_SHIFT[s] for s in range(4))

CARD_STR = tuple(RANKS[rank_of(c)] + SUITS[suit_of(c)] for c in ALL_CARDS)
CARD_OF: dict[str, int] = {s: c for c, s in enumerate(CARD_STR)}

# D1: card points by rank index (natural order 7 8 9 T J Q K A).
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
# D2: strength in trick order, by rank index.
# Plain: 7<8<9<J<Q<K<T<A.  Trump: 7<8<Q<K<T<A<9<J.
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)


def parse_card(text: object) -> int:
    """The card int for a notation string; raises ValueError for anything else."""
    if isinstance(text, str):
        card = CARD_OF.get(text)
        if card is not None:
            return card
    raise ValueError(f"unknown card {text!r}")


def cards_of(mask: int) -> list[int]:
    """The cards of a mask in ascending int order (by suit, then natural rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    """The mask holding the given cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def card_points(card: int, trump: int) -> int:
    """D1: what a card is worth when ``trump`` is the trump suit (-1 for none)."""
    if suit_of(card) == trump:
        return TRUMP_POINTS[rank_of(card)]
    return PLAIN_POINTS[rank_of(card)]


def strength(card: int, trump: int) -> int:
    """D2: the card's place in its suit's trick order."""
    if suit_of(card) == trump:
        return TRUMP_STRENGTH[rank_of(card)]
    return PLAIN_STRENGTH[rank_of(card)]


# card_points and strength of every card, by trump + 1 (row 0: no trump), for
# the loops that run at every trick.
POINTS_BY_TRUMP = tuple(tuple(card_points(c, t) for c in ALL_CARDS) for t in range(-1, 4))
STRENGTH_BY_TRUMP = tuple(tuple(strength(c, t) for c in ALL_CARDS) for t in range(-1, 4))


def trick_winner(plays: tuple[tuple[int, int], ...], trump: int) -> int:
    """D2: the seat whose card wins a trick given as (seat, card) pairs in play order.

    The highest trump wins; without a trump, the highest card of the led suit.
    """
    order = STRENGTH_BY_TRUMP[trump + 1]
    winner, best = plays[0]
    best_suit = suit_of(best)
    for seat, card in plays[1:]:
        suit = suit_of(card)
        if suit == best_suit:
            if order[card] > order[best]:
                winner, best = seat, card
        elif suit == trump:
            winner, best, best_suit = seat, card, suit
    return winner


def trick_points(plays: tuple[tuple[int, int], ...], trump: int) -> int:
    """D1: the card points of the cards of a trick, given as (seat, card) pairs."""
    points = POINTS_BY_TRUMP[trump + 1]
    return sum(points[card] for _, card in plays)


def _trick_keys(trump: int, led: int) -> tuple[int, ...]:
    """For every card: its power in a trick led in ``led``; a trump beats
    every card of the led suit, which beats every discard (0)."""
    return tuple(
        16 + strength(c, trump)
        if suit_of(c) == trump
        else 8 + strength(c, trump)
        if suit_of(c) == led
        else 0
        for c in ALL_CARDS
    )


# _trick_keys by 4 * (trump + 1) + led suit.
TRICK_KEYS = tuple(_trick_keys(t, led) for t in range(-1, 4) for led in range(4))


def trick_result(plays: tuple[tuple[int, int], ...], trump: int) -> tuple[int, int]:
    """D1, D2: the winning seat and the card points of a complete trick of four
    (seat, card) pairs; ``trick_winner`` and ``trick_points`` in one step."""
    (s0, c0), (s1, c1), (s2, c2), (s3, c3) = plays
    key = TRICK_KEYS[4 * trump + 4 + SUIT_OF[c0]]
    k0, k1, k2, k3 = key[c0], key[c1], key[c2], key[c3]
    best = max(k0, k1, k2, k3)
    winner = s0 if best == k0 else s1 if best == k1 else s2 if best == k2 else s3
    points = POINTS_BY_TRUMP[trump + 1]
    return winner, points[c0] + points[c1] + points[c2] + points[c3]


def _suit_tables(order: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For every 8-bit pattern of one suit: the best strength and the weakest rank."""
    best = []
    weakest = []
    for pattern in range(256):
        ranks = [r for r in range(8) if pattern >> r & 1]
        best.append(max((order[r] for r in ranks), default=-1))
        weakest.append(min(ranks, key=lambda r: order[r]) if ranks else -1)
    return tuple(best), tuple(weakest)


PLAIN_BEST, PLAIN_WEAKEST = _suit_tables(PLAIN_STRENGTH)
TRUMP_BEST, TRUMP_WEAKEST = _suit_tables(TRUMP_STRENGTH)


def sort_hand(mask: int, trump: int = -1) -> list[int]:
    """Cards for display: grouped by suit (S H D C), strongest first within a suit."""
    return sorted(cards_of(mask), key=lambda c: (suit_of(c), -strength(c, trump)))
