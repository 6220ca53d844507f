"""How the bot reads cards and weighs a hand, from notation card strings.

Card points and trick order are the engine's (D1, D2); the weights below are
the bot's own judgement of what a card is worth when bidding.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.rules.cards import CARD_OF, SUITS, card_points, strength

ACE, TEN, KING, QUEEN, JACK = "A", "T", "K", "Q", "J"

# What a trump is worth towards a Hokum: the J and the 9 are the two highest
# trumps (D2) and worth 20 and 14 card points (D1); length counts as well.
TRUMP_WEIGHT = {"J": 4.0, "9": 3.0, "A": 2.0, "T": 1.5, "K": 1.0, "Q": 1.0, "8": 0.5, "7": 0.5}
# A side ace is a sure trick in Hokum, a ten beside it usually another.
SIDE_ACE = 1.5
SIDE_TEN_WITH_ACE = 1.0
# In Sun every suit is plain: aces and the tens they protect win the tricks.
SUN_ACE = 3.0
SUN_TEN_WITH_ACE = 2.0
SUN_GUARDED_TEN = 1.0
SUN_KING = 0.5


def suit(card: str) -> str:
    """The suit letter of a notation card ("TH" -> "H")."""
    return card[1]


def rank(card: str) -> str:
    """The rank letter of a notation card ("TH" -> "T")."""
    return card[0]


def suit_index(letter: str | None) -> int:
    """The engine's suit index of a suit letter, -1 for no trump."""
    return SUITS.index(letter) if letter else -1


def points(card: str, trump: str | None) -> int:
    """D1: the card points of ``card`` with ``trump`` as trump."""
    return card_points(CARD_OF[card], suit_index(trump))


def power(card: str, trump: str | None) -> int:
    """D2: the card's place in its suit's trick order."""
    return strength(CARD_OF[card], suit_index(trump))


def of_suit(cards: Iterable[str], letter: str) -> list[str]:
    """The cards of one suit."""
    return [c for c in cards if suit(c) == letter]


def beats(card: str, best: str, trump: str | None) -> bool:
    """True when ``card`` would take the trick from ``best``, the card winning it so far (D2)."""
    if suit(card) == suit(best):
        return power(card, trump) > power(best, trump)
    return trump is not None and suit(card) == trump


def trick_winner(trick: list[dict[str, object]], trump: str | None) -> tuple[int, str]:
    """The seat winning the cards played so far, and its card."""
    seat, best = int(str(trick[0]["seat"])), str(trick[0]["card"])
    for play in trick[1:]:
        card = str(play["card"])
        if beats(card, best, trump):
            seat, best = int(str(play["seat"])), card
    return seat, best


def hokum_strength(cards: Iterable[str], trump: str) -> float:
    """How good ``cards`` are for a Hokum in ``trump``: trump honours, length, side aces."""
    cards = list(cards)
    score = sum(TRUMP_WEIGHT[rank(c)] for c in of_suit(cards, trump))
    for letter in SUITS:
        if letter == trump:
            continue
        ranks = {rank(c) for c in of_suit(cards, letter)}
        if ACE in ranks:
            score += SIDE_ACE
            if TEN in ranks:
                score += SIDE_TEN_WITH_ACE
    return score


def sun_strength(cards: Iterable[str]) -> float:
    """How good ``cards`` are for Sun: aces, tens they protect, guarded tens, kings."""
    score = 0.0
    cards = list(cards)
    for letter in SUITS:
        held = of_suit(cards, letter)
        ranks = {rank(c) for c in held}
        if ACE in ranks:
            score += SUN_ACE
        if TEN in ranks:
            if ACE in ranks:
                score += SUN_TEN_WITH_ACE
            elif len(held) >= 3:
                score += SUN_GUARDED_TEN
        if KING in ranks:
            score += SUN_KING
    return score


def trump_count(cards: Iterable[str], trump: str) -> int:
    """How many trumps ``cards`` hold."""
    return len(of_suit(cards, trump))
