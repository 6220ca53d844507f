"""A whole deal's result on a guessed deal: the strong bot's Monte Carlo judge of a contract.

Given every seat's eight cards (a guess, never the real hands) and a
contract, ``outcome`` plays the multiplier calls the way the bots call them
(``doubling.call``), lets every seat declare the way the bots declare
(``declaring``'s worth of a declaration), plays the cards out quickly
(``playout.play_out``) and scores the deal as the engine does (D20-D24): the
game points of one team minus the other's. A Gahwa counts the 152 points it
brings (D16). The sweep bonus is left out, as in the card search.

``bidding_deal`` guesses a whole deal from a seat's view during the bidding:
its five cards and the face-up card are all it knows, so its own three
missing cards (two and the face-up card for the taker) are dealt as well as
the other seats' eight (D5: the rest of the deck goes out once the contract
is settled, the taker getting the face-up card and two, the others three).
The other seats' first five cards are kept with the probability their
bids so far give them (``inference``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.rules.cards import CARD_OF, CARD_STR, SUITS, Rank, card_at, cards_of, suit_of
from games.rules.projects import VALUES, Project, counting_team, declaration_options
from games.rules.scoring import convert, game_points

from .bidding import HOKUM_BID, HOKUM_MIN_TRUMPS, SUN_BID, SUN_OVER_OPPONENT
from .doubling import call
from .hand import hokum_strength, sun_strength
from .inference import PASS_SLACK, Evidence, log_weight
from .playout import play_out

BALOOT_CARD_POINTS = 20
# Guessed bidding hands drawn per kept deal at most.
ATTEMPTS = 12


@dataclass(frozen=True)
class Deal:
    """A contract to play out: ``trump`` -1 for Sun; seats 1-4."""

    kind: str  # "sun" or "hokum"
    trump: int
    bidder: int
    first: int  # the seat leading the first trick (P1)
    doublable: bool = True  # D13: a Sun is doubled only in some matches
    multiplier: int = 1
    lock: bool = False
    gahwa: bool = False
    first_doubler: int = 0

    @property
    def sun(self) -> bool:
        return self.kind != "hokum"

    def to_view(self) -> dict[str, Any]:
        """The contract as ``view["contract"]`` shows it."""
        return {
            "type": self.kind,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "bidder": self.bidder,
            "multiplier": self.multiplier,
            "lock": self.lock,
            "gahwa": self.gahwa,
        }


def order_from(first: int) -> tuple[int, int, int, int]:
    """The seats in turn order from ``first``."""
    return (first, first % 4 + 1, (first + 1) % 4 + 1, (first + 2) % 4 + 1)


def cards(mask: int) -> list[str]:
    """The notation cards of a mask."""
    return [CARD_STR[c] for c in cards_of(mask)]


def settle_calls(hands: Sequence[int], deal: Deal, start: int = 0, after: int = 0) -> Deal:
    """The multiplier the bots' calls (``doubling.call``) reach on ``hands``,
    from ``start`` calls made (0: none yet), ``after`` being the last caller
    (0: the bidder)."""
    if deal.sun and (not deal.doublable or start > 0):
        return deal
    step = start
    last = after or deal.bidder
    while step < (1 if deal.sun else 4):
        asked = (last % 4 + 1, (last + 2) % 4 + 1)
        word = ("double", "triple", "four", "gahwa")[step]
        caller = 0
        for seat in asked:
            if calls_with(hands[seat - 1], deal, word):
                caller = seat
                break
        if not caller:
            return deal
        deal = with_call(deal, word, caller, lock_of(word))
        step += 1
        last = caller
    return deal


def lock_of(word: str) -> bool:
    """Whether the bots lock a call of ``word`` (D15)."""
    # The bots lock their Double and Four and leave a Triple open (``doubling``).
    return word in ("double", "four")


def with_call(deal: Deal, word: str, caller: int, lock: bool) -> Deal:
    """``deal`` after ``caller`` calls ``word`` (Double, Triple, Four or Gahwa)."""
    if word == "gahwa":
        return replace(deal, gahwa=True, lock=False)
    multiplier = ("double", "triple", "four").index(word) + 2
    return replace(
        deal,
        multiplier=multiplier,
        lock=lock and not deal.sun,
        first_doubler=deal.first_doubler or caller,
    )


def calls_with(hand: int, deal: Deal, word: str) -> bool:
    """True when the bots' heuristic (``doubling.call``) holding ``hand`` calls ``word``."""
    legal: list[dict[str, Any]] = [{"double": "pass"}]
    if deal.sun or word == "gahwa":
        legal.append({"double": word})
    else:
        legal += [{"double": word, "lock": False}, {"double": word, "lock": True}]
    view = {"legal": legal, "hand": cards(hand), "contract": deal.to_view()}
    return call(view)["double"] != "pass"


def best_declaration(hand: int, deal: Deal) -> tuple[Project, ...]:
    """The declaration the bots make (``declaring.declare``): the list worth the
    most card points, Baloot's 20 counted against a project using the trump K or Q."""
    options = declaration_options(hand, deal.sun)
    if len(options) == 1:
        return options[0]
    baloot = baloot_cards(hand, deal)

    def worth(option: tuple[Project, ...]) -> tuple[int, int]:
        value = sum(VALUES[kind] for kind, _ in option)
        if baloot and any(c in baloot for _, used in option for c in used):
            value -= BALOOT_CARD_POINTS
        return value, -sum(len(used) for _, used in option)

    return max(options, key=worth)


def baloot_cards(hand: int, deal: Deal) -> tuple[int, ...]:
    """The trump K and Q when ``hand`` holds both in a Hokum, else nothing (D21a)."""
    if deal.sun:
        return ()
    king = card_at(deal.trump, Rank.KING)
    queen = card_at(deal.trump, Rank.QUEEN)
    if hand >> king & 1 and hand >> queen & 1:
        return (king, queen)
    return ()


def outcome(
    hands: Sequence[int],
    deal: Deal,
    team: int,
    declared: dict[int, tuple[Project, ...]] | None = None,
    card_points: tuple[int, int] | None = None,
) -> float:
    """Team ``team``'s (0 = A, 1 = B) game points minus the other team's for
    ``deal`` played on ``hands``; ``declared`` fixes some seats' declarations
    (the others declare as the bots do), ``card_points`` a playout already made."""
    declared = dict(declared or {})
    for seat in (1, 2, 3, 4):
        if seat not in declared:
            declared[seat] = best_declaration(hands[seat - 1], deal)
    if card_points is None:
        card_points = play_out(hands, [], deal.first, deal.trump, deal.lock, deal.bidder)
    return score(hands, deal, team, declared, card_points)


def score(
    hands: Sequence[int],
    deal: Deal,
    team: int,
    declared: dict[int, tuple[Project, ...]],
    card_points: tuple[int, int],
) -> float:
    """D20-D24: the deal's game points for ``team`` minus the other team's."""
    order = order_from(deal.first)
    table = tuple(declared.get(s, ()) for s in (1, 2, 3, 4))
    counting = counting_team(table, order)
    totals = [card_points[0], card_points[1]]
    if counting is not None:
        totals[counting] += sum(
            VALUES[kind]
            for s in (1, 2, 3, 4)
            if (s - 1) % 2 == counting
            for kind, _ in table[s - 1]
        )
    baloots = [0, 0]
    for seat in (1, 2, 3, 4):
        pair = baloot_cards(hands[seat - 1], deal)
        if pair and not any(c in pair for _, used in table[seat - 1] for c in used):
            baloots[(seat - 1) % 2] += 1
    converted = [convert(totals[0], deal.sun), convert(totals[1], deal.sun)]
    _, points = game_points(
        totals,
        converted,
        (deal.bidder - 1) % 2,
        deal.multiplier,
        deal.gahwa,
        (deal.first_doubler - 1) % 2,
        baloots,
    )
    return float(points[team] - points[1 - team])


def bidding_evidence(evidence: list[Evidence]) -> list[Evidence]:
    """The bids' evidence read on the five cards a seat bid with: a pass says
    the five cards and the face-up card stayed under the threshold itself,
    with no slack for cards still to come."""
    return [
        ev if ev.reached else replace(ev, threshold=ev.threshold - PASS_SLACK) for ev in evidence
    ]


@dataclass(frozen=True)
class BiddingDeal:
    """A guessed deal during the bidding: each seat's five cards (mine the real
    ones) and the eleven cards still to be dealt, in a random order."""

    five: tuple[int, int, int, int]
    rest: tuple[int, ...]
    faceup: int

    def hands(self, taker: int, first: int) -> tuple[int, int, int, int]:
        """The eight cards each seat ends with when ``taker`` takes the face-up
        card: it and two of the rest, the others three each (D5)."""
        masks = list(self.five)
        index = 0
        for seat in order_from(first):
            count = 2 if seat == taker else 3
            for card in self.rest[index : index + count]:
                masks[seat - 1] |= 1 << card
            index += count
        masks[taker - 1] |= 1 << self.faceup
        return (masks[0], masks[1], masks[2], masks[3])


def bidding_deal(
    seat: int, hand: Sequence[str], faceup: str, evidence: list[Evidence], rng: random.Random
) -> BiddingDeal:
    """One guess of the whole deal from ``seat``'s five cards and the face-up
    card; the other seats' five cards are kept with the probability the bids
    give them (the best of ``ATTEMPTS`` guesses when none is kept)."""
    mine = [CARD_OF[c] for c in hand]
    up = CARD_OF[faceup]
    pool = [c for c in range(32) if c != up and c not in mine]
    mine_mask = sum(1 << c for c in mine)
    best: tuple[float, BiddingDeal] | None = None
    for _ in range(ATTEMPTS):
        rng.shuffle(pool)
        five = [0, 0, 0, 0]
        five[seat - 1] = mine_mask
        index = 0
        guessed: dict[int, list[str]] = {}
        for other in (1, 2, 3, 4):
            if other == seat:
                continue
            chosen = pool[index : index + 5]
            index += 5
            five[other - 1] = sum(1 << c for c in chosen)
            guessed[other] = [CARD_STR[c] for c in chosen]
        deal = BiddingDeal((five[0], five[1], five[2], five[3]), tuple(pool[index:]), up)
        weight = log_weight(evidence, guessed, {}, faceup) if evidence else 0.0
        if weight >= 0 or rng.random() < math.exp(weight):
            return deal
        if best is None or weight > best[0]:
            best = (weight, deal)
    assert best is not None
    return best[1]


def bids_in_turn(five: int, faceup: int, bid_round: int) -> tuple[str, int] | None:
    """What a seat holding ``five`` would bid at its turn, as the bots bid with
    no boldness (``bidding``): ("sun", -1), ("hokum", trump) or None for a pass."""
    held = [*cards(five), CARD_STR[faceup]]
    if sun_strength(held) >= SUN_BID:
        return "sun", -1
    up_suit = suit_of(faceup)
    options = [up_suit] if bid_round == 1 else [s for s in range(4) if s != up_suit]
    best = max(options, key=lambda s: hokum_strength(held, SUITS[s]))
    trumps = sum(1 for c in [*cards_of(five), faceup] if suit_of(c) == best)
    if hokum_strength(held, SUITS[best]) >= HOKUM_BID and trumps >= HOKUM_MIN_TRUMPS:
        return "hokum", best
    return None


def overcalls_sun(five: int, faceup: int, boldness: float = 0.0) -> bool:
    """True when a seat holding ``five`` takes another team's Hokum away with a Sun."""
    return sun_strength([*cards(five), CARD_STR[faceup]]) + boldness >= SUN_OVER_OPPONENT
