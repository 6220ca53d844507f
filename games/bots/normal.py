"""The ``normal`` bot's card play: the easy bot's habits plus a card memory.

It knows which cards are gone and which suits each seat lacks (``memory``),
so a card is a winner when nothing unseen beats it, not only when it is the
ace or the trump J. On lead it draws trumps while the other team may still
hold some, cashes winners the other team cannot ruff, leads into its
partner's void in Hokum, and otherwise leads low from its longest suit that
no opponent ruffs, avoiding a suit its partner discarded (a discard says
"not this suit"). Following, it wins cheaply, covers with a card that holds
when an opponent still plays after it, feeds its partner's trick once it is
sure, and discards cheap cards that are not winners. In the last five
tricks it tries its cards on a few deals of the unseen cards fitting its
memory (``search``): played out quickly, then counted exactly in the last
three, another card overrules the habits' one only when clearly better.
Sawa waits for a Baloot that can still be announced with a winning card.
"""

from __future__ import annotations

import random
import time
from typing import Any

from . import search
from .bidding import partner_of
from .cardplay import CHEAP_TRUMP, DRAWING_LENGTH, DRAWING_TRICKS, WORTH_A_TRUMP, cheapest
from .choice import pick
from .hand import beats, of_suit, points, power, suit, trick_winner
from .memory import Memory

# From this many cards in hand on, the card is chosen by exact search over
# this many deals of the unseen cards (a few milliseconds).
COUNT_FROM = 3
COUNT_SAMPLES = 12
# From this many cards on (not earlier: the first tricks keep the habits),
# a few deals played out quickly may overrule the habits' card, when another
# card does better by ``PLAYOUT_MARGIN`` game points a deal.
PLAYOUT_FROM = 5
PLAYOUT_SAMPLES = 8
PLAYOUT_MARGIN = 0.5
BUDGET_SHARE = 0.8

View = dict[str, Any]


def play(
    view: View, memory: Memory, budget_ms: float, rng: random.Random, count: bool = True
) -> dict[str, Any]:
    """The normal bot's card (with Baloot when it may), or its Sawa claim."""
    start = time.perf_counter()
    legal = view["legal"]
    trump = view["contract"]["trump"]
    sawa = pick(legal, sawa=True)
    if sawa is not None:
        # D21a: Baloot is worth keeping; a winning trump K or Q goes out first.
        for action in legal:
            if action.get("baloot") and is_winner(action["play"], memory, trump):
                return action
        return sawa
    cards = sorted({a["play"] for a in legal if "play" in a})
    pick_card = follow if view["trick"] else lead
    card = pick_card(view, memory, cards, trump)
    if count and len(cards) > 1:
        deadline = start + budget_ms / 1000 * BUDGET_SHARE
        if len(view["hand"]) <= COUNT_FROM:
            # The last tricks: count them out exactly on a few guessed deals.
            card = search.best_card(view, memory, cards, card, deadline, COUNT_SAMPLES, rng) or card
        elif len(view["hand"]) <= PLAYOUT_FROM:
            card = (
                search.best_card_by_playout(
                    view,
                    memory,
                    cards,
                    card,
                    deadline,
                    PLAYOUT_SAMPLES,
                    rng,
                    margin=PLAYOUT_MARGIN,
                )
                or card
            )
    announced = pick(legal, play=card, baloot=True)
    if announced is not None:
        return announced
    return {"seat": view["seat"], "play": card}


def is_winner(card: str, memory: Memory, trump: str | None) -> bool:
    """True when no unseen card of the suit beats ``card``."""
    return not memory.higher_unseen(card, lambda c: power(c, trump))


def opponents(seat: int) -> tuple[int, int]:
    """The two seats of the other team."""
    return seat % 4 + 1, (seat + 2) % 4 + 1


def lead(view: View, memory: Memory, cards: list[str], trump: str | None) -> str:
    """The card the normal bot leads."""
    seat = view["seat"]
    partner = partner_of(seat)
    hand = view["hand"]
    contract = view["contract"]
    trumps = of_suit(cards, trump) if trump else []
    if trump and trumps and contract["bidder"] in (seat, partner):
        out = [
            c
            for c in memory.unseen
            if suit(c) == trump and any(memory.may_hold(o, c) for o in opponents(seat))
        ]
        top = max(trumps, key=lambda c: power(c, trump))
        if out and is_winner(top, memory, trump):
            return top  # draw the other team's trumps with a sure winner
        played = len(memory.tricks)
        if (
            out
            and contract["bidder"] == seat
            and played < DRAWING_TRICKS
            and len(of_suit(hand, trump)) >= DRAWING_LENGTH
        ):
            return min(trumps, key=lambda c: power(c, trump))
    plain = [c for c in cards if suit(c) != trump]
    if not plain:
        best = max(cards, key=lambda c: power(c, trump))
        return best if is_winner(best, memory, trump) else min(cards, key=lambda c: power(c, trump))

    def safe(letter: str) -> bool:
        # Neither opponent is known to ruff a lead of this suit.
        return not any(memory.may_ruff(o, letter) for o in opponents(seat))

    winners = [c for c in plain if is_winner(c, memory, trump) and safe(suit(c))]
    if winners:
        return max(winners, key=lambda c: (len(of_suit(hand, suit(c))), points(c, trump), c))
    if trump:
        # Hokum: a low card into the partner's void, so that it ruffs.
        for card in sorted(plain, key=lambda c: (points(c, trump), c)):
            letter = suit(card)
            if memory.may_ruff(partner, letter) and safe(letter):
                return card

    discarded = _partner_discards(memory, partner, trump)

    def preference(letter: str) -> tuple[int, int, int, int]:
        # Safe suits first, not one the partner threw away, then the longest;
        # among equals the cheapest low card.
        low = min(of_suit(plain, letter), key=lambda c: power(c, trump))
        return (
            int(safe(letter)),
            -int(letter in discarded),
            len(of_suit(hand, letter)),
            -points(low, trump),
        )

    longest = max(sorted({suit(c) for c in plain}), key=preference)
    return min(of_suit(plain, longest), key=lambda c: power(c, trump))


def _partner_discards(memory: Memory, partner: int, trump: str | None) -> set[str]:
    """Suits the partner threw away when it could not follow: it does not want them led."""
    out = set()
    for trick in memory.tricks:
        led = suit(trick[0][1])
        for who, card in trick[1:]:
            if who == partner and suit(card) not in (led, trump):
                out.add(suit(card))
    return out


def follow(view: View, memory: Memory, cards: list[str], trump: str | None) -> str:
    """The card the normal bot plays to a trick someone else led."""
    seat = view["seat"]
    trick = view["trick"]
    winner, best = trick_winner(trick, trump)
    last = len(trick) == 3
    led = suit(str(trick[0]["card"]))
    behind = [s for s in opponents(seat) if s not in {int(p["seat"]) for p in trick}]
    winning = [c for c in cards if beats(c, best, trump)]
    losing = [c for c in cards if c not in winning]

    def holds(card: str) -> bool:
        # The card wins the trick against the opponents still to play: none
        # may hold a higher card of the led suit, or, shown void in it, a trump.
        for other in behind:
            if suit(card) == led and memory.may_ruff(other, led):
                return False
            follows = led not in memory.voids.get(other, set())
            for c in memory.unseen:
                if not memory.may_hold(other, c) or not beats(c, card, trump):
                    continue
                if suit(c) == led and follows:
                    return False
                if suit(c) == trump and suit(card) == trump and not follows:
                    return False
        return True

    if winner == partner_of(seat):
        if losing and (last or holds(best)):
            # The trick is ours: add points, keeping winners and trumps.
            gifts = [c for c in losing if suit(c) != trump and not is_winner(c, memory, trump)]
            if gifts:
                return max(gifts, key=lambda c: (points(c, trump), -power(c, trump), c))
        return _discard(losing or cards, memory, trump)
    if not winning:
        return _discard(cards, memory, trump)
    lowest = min(winning, key=lambda c: power(c, trump))
    if trump and suit(lowest) == trump and led != trump and losing:
        # Ruffing: spend a valuable trump only on a trick worth it.
        on_table = sum(points(str(p["card"]), trump) for p in trick)
        if on_table < WORTH_A_TRUMP and points(lowest, trump) > CHEAP_TRUMP:
            return _discard(losing, memory, trump)
    if not last and not holds(lowest):
        # An opponent behind may take it: cover with a card that holds, if any.
        sure = [c for c in winning if holds(c)]
        if sure:
            return min(sure, key=lambda c: power(c, trump))
        if points(lowest, trump) >= WORTH_A_TRUMP and losing:
            return _discard(losing, memory, trump)
    return lowest


def _discard(cards: list[str], memory: Memory, trump: str | None) -> str:
    """The cheapest card, taken from the weakest suit and never a winner when avoidable."""
    keep = [c for c in cards if not is_winner(c, memory, trump) and suit(c) != trump]
    pool = keep or cards
    return cheapest(pool, trump)
