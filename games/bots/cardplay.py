"""How the bot plays its cards (D2-D4, D21a, D26).

Sawa whenever the engine offers it. On lead: the Hokum bidder draws trumps
with the J (or from length early in the deal), then anyone leads its aces,
then the lowest card of its longest plain suit. Following: the lowest card
that wins when the other team holds the trick, the cheapest card otherwise;
a last player whose partner wins adds points with a card that does not
overtake. A trump and K or Q goes out with Baloot when it may.
"""

from __future__ import annotations

from typing import Any

from .bidding import partner_of
from .choice import pick
from .hand import ACE, JACK, beats, of_suit, points, power, rank, suit, trick_winner

View = dict[str, Any]

# Ruffing a trick with a valuable trump is worth it from this many points on.
WORTH_A_TRUMP = 10
# The first tricks, during which a Hokum bidder leads trumps from length.
DRAWING_TRICKS = 3
DRAWING_LENGTH = 3
# A trump this cheap (7, 8, Q, K) may ruff anything.
CHEAP_TRUMP = 4


def play(view: View) -> dict[str, Any]:
    """The bot's card (with Baloot when it may), or its Sawa claim."""
    legal = view["legal"]
    sawa = pick(legal, sawa=True)
    if sawa is not None:
        return sawa
    contract = view["contract"]
    trump = contract["trump"]
    cards = sorted({a["play"] for a in legal if "play" in a})
    card = _follow(view, cards, trump) if view["trick"] else _lead(view, cards, trump)
    announced = pick(legal, play=card, baloot=True)
    if announced is not None:
        return announced
    return {"seat": view["seat"], "play": card}


def cheapest(cards: list[str], trump: str | None) -> str:
    """The card that costs least to give away: fewest points, non-trump, lowest."""
    return min(cards, key=lambda c: (points(c, trump), suit(c) == trump, power(c, trump), c))


def is_master(card: str, trump: str | None) -> bool:
    """True for the card no other card of its suit beats: the plain A or the trump J."""
    return rank(card) == (JACK if suit(card) == trump else ACE)


def _lead(view: View, cards: list[str], trump: str | None) -> str:
    """The card the bot leads to a new trick."""
    hand = view["hand"]
    contract = view["contract"]
    trumps = of_suit(cards, trump) if trump else []
    if trump and trumps and contract["bidder"] == view["seat"]:
        jack = [c for c in trumps if rank(c) == JACK]
        if jack:
            return jack[0]
        played = sum(view["tricks_won"].values())
        if played < DRAWING_TRICKS and len(of_suit(hand, trump)) >= DRAWING_LENGTH:
            return min(trumps, key=lambda c: power(c, trump))
    plain = [c for c in cards if suit(c) != trump]
    if not plain:
        best = max(cards, key=lambda c: power(c, trump))
        return best if is_master(best, trump) else min(cards, key=lambda c: power(c, trump))
    aces = [c for c in plain if rank(c) == ACE]
    if aces:
        return max(aces, key=lambda c: (len(of_suit(hand, suit(c))), c))

    def suit_preference(letter: str) -> tuple[int, int]:
        # The longest suit first; among equals, the one whose low card is cheapest.
        low = min(of_suit(plain, letter), key=lambda c: power(c, trump))
        return len(of_suit(hand, letter)), -points(low, trump)

    longest = max(sorted({suit(c) for c in plain}), key=suit_preference)
    return min(of_suit(plain, longest), key=lambda c: power(c, trump))


def _follow(view: View, cards: list[str], trump: str | None) -> str:
    """The card the bot plays to a trick someone else led."""
    trick = view["trick"]
    winner, best = trick_winner(trick, trump)
    last = len(trick) == 3
    winning = [c for c in cards if beats(c, best, trump)]
    losing = [c for c in cards if c not in winning]
    if winner == partner_of(view["seat"]):
        if last and losing:
            # The trick is ours: add points, keeping aces (future tricks) and trumps.
            gifts = [c for c in losing if suit(c) != trump and rank(c) != ACE]
            if gifts:
                return max(gifts, key=lambda c: (points(c, trump), -power(c, trump), c))
        return cheapest(losing or cards, trump)
    if not winning:
        return cheapest(cards, trump)
    lowest = min(winning, key=lambda c: power(c, trump))
    led = suit(str(trick[0]["card"]))
    if trump and suit(lowest) == trump and led != trump and losing:
        # Ruffing: spend a valuable trump only on a trick worth it.
        on_table = sum(points(str(p["card"]), trump) for p in trick)
        if on_table < WORTH_A_TRUMP and points(lowest, trump) > CHEAP_TRUMP:
            return cheapest(losing, trump)
    if not last and not is_master(lowest, trump) and points(lowest, trump) >= WORTH_A_TRUMP:
        # An opponent still plays after us: a ten would fall to the ace.
        masters = [c for c in winning if is_master(c, trump)]
        if masters:
            return masters[0]
    return lowest
