"""The ``strong`` bot's bids, multiplier calls and declarations: heuristics checked by Monte Carlo.

The heuristics (``bidding`` with ``BOLDNESS``, ``doubling``, ``declaring``)
propose; where the choice is close, a fixed number of guessed whole deals
(``forecast``) judges it: each option's mean game points for the seat's team
minus the other team's, every deal played out quickly with the multiplier
calls and declarations the bots would make.

Bidding: a seat bids on five cards, so each guess deals its own three
missing cards as well as the other seats' eight (``forecast.bidding_deal``).
Only hands near a threshold are judged (within ``BID_ZONE`` of it): a bid
the heuristic makes is dropped when passing does better by ``VETO_MARGIN``
(more for a Hokum) on the same guesses, and one it does not make is added
only when it beats passing by ``ADD_MARGIN`` (the quick playouts judge the
bidder harshly, so the margins lean towards the heuristic). Passing is
valued as what follows it: the seats after this one bid (at the bots'
thresholds, an opponent's Hokum being taken over by a Sun as the bots do)
and the contract is played out; when nobody bids the pass is worth 0.

Multiplier calls: on deals fitting the seat's memory and the bids
(``inference``), the pass and each form of the call (open or locked in
Hokum) are played out with the answers the bots would give. The playouts
favour the defenders (every hand is open to them, and the earlier
Monte Carlo bidder that trusted them doubled its way to Gahwas the play
could not carry), so the check mostly takes away: a call the heuristic
makes is dropped when the pass does better, and the only call it adds is a
Double by a hand near the heuristic's, when the defenders win
``CALL_CONFIDENCE`` of the guesses and gain ``CALL_MARGIN`` a deal.

Declaring (D18-D21a): projects only count for the team showing the best
one (D20), so an undoubled defender never loses points by declaring more;
but a defeated bidder's projects go to the defenders (D23), a doubled
loser's to the winner (D24), a project using the trump K or Q gives up
Baloot, and every project shows cards to the others.
Each valid declaration list is scored on the guessed deals (one playout
each, the declarations changing only the scoring), less ``REVEAL_COST`` per
card shown, which stands for what the others learn (the playouts are open
and cannot price it); the best wins, the heuristic's on a tie. A hand with
nothing to declare is judged on its guesses too, for its one choice: the
bot takes as long over it as over a hand with projects, so the moment its
declaration is recorded does not tell the table which hand it held.

The number of guesses fixes the work; the time budget only cuts it short in
an emergency, and with too few guesses the heuristic's choice stands.
"""

from __future__ import annotations

import random
import time
from typing import Any

from games.rules.cards import CARD_OF, SUITS
from games.rules.projects import Project

from . import bidding, declaring, doubling, inference
from .bidding import HOKUM_BID, HOKUM_MIN_TRUMPS, SUN_BID
from .choice import only, pick
from .forecast import (
    Deal,
    best_declaration,
    bidding_deal,
    bidding_evidence,
    bids_in_turn,
    calls_with,
    lock_of,
    order_from,
    outcome,
    overcalls_sun,
    score,
    settle_calls,
    with_call,
)
from .hand import hokum_strength, sun_strength, trump_count
from .memory import remember
from .playout import play_out

View = dict[str, Any]
History = dict[str, Any]

# How much less strength the strong bot's Hokum and Sun bids need than the
# others' (``bidding.bid``).
BOLDNESS = 1.5
# Hands whose bid strength (boldness included) is within this of a threshold
# are judged by Monte Carlo; the others keep the heuristic's bid.
BID_ZONE = 1.0
# Guessed deals per judged bid, call or declaration.
BID_SAMPLES = 48
CALL_SAMPLES = 40
DECLARE_SAMPLES = 24
# Fewer guesses than this (out of time) leave the heuristic's choice.
MIN_SAMPLES = 16
# The quick playouts judge a bid about two game points worse than the real
# play makes it (measured on the strong bot's bids against the normal bot):
# a bid the heuristic makes is dropped only when passing does better by
# ``VETO_MARGIN`` (a Hokum's value is read less surely than a Sun's, so by
# more), and one it does not make is added when it beats passing by
# ``ADD_MARGIN``.
VETO_MARGIN = {"sun": 2.0, "hokum": 4.0}
ADD_MARGIN = 3.0
# The playouts favour the defenders (every hand is open to them): only a
# Double is ever added to the heuristic's calls, for a hand within
# ``DOUBLE_ZONE`` of the heuristic's, when it gains ``CALL_MARGIN`` game
# points a deal over passing and the defenders win ``CALL_CONFIDENCE`` of
# the guessed deals. Any call the heuristic makes may be dropped.
DOUBLE_ZONE = 2.0
CALL_MARGIN = 1.0
CALL_CONFIDENCE = 0.95
# Game points charged per card a declaration shows the other seats.
REVEAL_COST = 0.05
BUDGET_SHARE = 0.8

CALL_WORDS = ("double", "triple", "four", "gahwa")


def bid(view: View, history: History, budget_ms: float, rng: random.Random) -> dict[str, Any]:
    """The strong bot's bid: the bold heuristic's, checked on guessed deals near its thresholds."""
    proposed = bidding.bid(view, boldness=BOLDNESS)
    legal = view["legal"]
    words = {a.get("bid") for a in legal}
    if "hokum" not in words or proposed.get("bid") not in ("sun", "hokum", "pass"):
        return proposed  # a reply, a Hokum choice, an Ashkal or a redeal
    hand = view["hand"]
    faceup = view["faceup"]
    sun_margin = sun_strength([*hand, faceup]) + BOLDNESS - SUN_BID
    trump, strength = bidding.best_hokum(view)
    hokum_margin = strength + BOLDNESS - HOKUM_BID
    if trump_count([*hand, faceup], trump) < HOKUM_MIN_TRUMPS:
        hokum_margin = -99.0
    margins = {"sun": sun_margin, "hokum": hokum_margin}
    word = proposed["bid"]
    if word != "pass" and margins[word] >= BID_ZONE:
        return proposed
    candidates = [w for w in ("sun", "hokum") if abs(margins[w]) < BID_ZONE or w == word]
    if not candidates:
        return proposed
    values = judge_bids(view, history, candidates, trump, budget_ms, rng)
    if values is None:
        return proposed
    passing = values["pass"]
    if word != "pass":
        if values[word] >= passing - VETO_MARGIN[word]:
            return proposed
        others = [
            w
            for w in candidates
            if w != word and margins[w] >= 0 and values[w] >= passing - VETO_MARGIN[w]
        ]
        if others:
            return only(legal, bid=max(others, key=values.__getitem__))
        return only(legal, bid="pass")
    best = max(candidates, key=values.__getitem__)
    if values[best] >= passing + ADD_MARGIN:
        return only(legal, bid=best)
    return proposed


def judge_bids(
    view: View,
    history: History,
    candidates: list[str],
    trump: str,
    budget_ms: float,
    rng: random.Random,
) -> dict[str, float] | None:
    """The mean game points (the seat's team minus the other) of each bid in
    ``candidates`` and of passing, over ``BID_SAMPLES`` guessed deals; None
    when the time ran out before ``MIN_SAMPLES``."""
    deadline = time.perf_counter() + budget_ms / 1000 * BUDGET_SHARE
    seat = view["seat"]
    team = (seat - 1) % 2
    faceup = view["faceup"]
    up = CARD_OF[faceup]
    bid_round = int(view["bid_round"])
    first = int(view["dealer"]) % 4 + 1
    after = [s for s in order_from(first) if _position(s, first) > _position(seat, first)]
    evidence = bidding_evidence(inference.read_bids(view, faceup))
    trump_index = SUITS.index(trump)
    totals = dict.fromkeys([*candidates, "pass"], 0.0)
    samples = 0
    while samples < BID_SAMPLES and time.perf_counter() < deadline:
        guess = bidding_deal(seat, view["hand"], faceup, evidence, rng)
        for word in candidates:
            contract = ("sun", -1) if word == "sun" else ("hokum", trump_index)
            totals[word] += _contract_value(guess, seat, contract, after, first, team, up, view)
        # Passing: the first seat after this one that bids takes the contract.
        for other in after:
            contract_bid = bids_in_turn(guess.five[other - 1], up, bid_round)
            if contract_bid is not None:
                totals["pass"] += _contract_value(
                    guess, other, contract_bid, [], first, team, up, view
                )
                break
        samples += 1
    if samples < MIN_SAMPLES:
        return None
    return {w: v / samples for w, v in totals.items()}


def _contract_value(
    guess: Any,
    bidder: int,
    contract: tuple[str, int],
    after: list[int],
    first: int,
    team: int,
    up: int,
    view: View,
) -> float:
    """``team``'s result when ``bidder`` bids ``contract`` on ``guess``: an
    opponent of a Hokum bidder among ``after`` may take it over with a Sun."""
    kind, trump = contract
    taker = bidder
    if kind == "hokum":
        for other in after:
            if (other - bidder) % 2 and overcalls_sun(guess.five[other - 1], up):
                kind, trump, taker = "sun", -1, other
                break
    bid_round = int(view["bid_round"])
    doublable = kind == "hokum" or (bid_round == 1 and _score_of_other(view, taker) > 100)
    hands = guess.hands(taker, first)
    deal = settle_calls(hands, Deal(kind, trump, taker, first, doublable))
    return outcome(hands, deal, team)


def _position(seat: int, first: int) -> int:
    return (seat - first) % 4


def _score_of_other(view: View, bidder: int) -> int:
    """The match score of the team not bidding (D13)."""
    score = view.get("score") or {}
    return int(score.get("AB"[bidder % 2], 0))


def call(view: View, history: History, budget_ms: float, rng: random.Random) -> dict[str, Any]:
    """The strong bot's multiplier call: the heuristic's, checked on guessed deals."""
    proposed = doubling.call(view)
    legal = view["legal"]
    offered = next(a["double"] for a in legal if a["double"] != "pass")
    adding = offered == "double" and _near_a_double(view)
    if proposed["double"] == "pass" and not adding:
        return proposed
    values = judge_calls(view, history, offered, budget_ms, rng)
    if values is None:
        return proposed
    passing = values[("pass", False)][0]
    calls = {k: v for k, v in values.items() if k[0] != "pass"}
    best = max(calls, key=lambda k: (calls[k][0], k == _key(proposed)))
    value, wins = calls[best]
    if proposed["double"] != "pass":
        if value >= passing:
            return _action(legal, best)
        return only(legal, double="pass")
    if value >= passing + CALL_MARGIN and wins >= CALL_CONFIDENCE:
        return _action(legal, best)
    return proposed


def _near_a_double(view: View) -> bool:
    """True when the seat's hand is close enough to the heuristic's Double to be judged."""
    hand = view["hand"]
    contract = view["contract"]
    if contract["type"] != "hokum":
        return sun_strength(hand) >= doubling.SUN_DOUBLE - DOUBLE_ZONE
    trump = contract["trump"]
    return (
        hokum_strength(hand, trump) >= doubling.HOKUM_DOUBLE - DOUBLE_ZONE
        and trump_count(hand, trump) >= doubling.HOKUM_DOUBLE_TRUMPS - 1
    )


def _key(action: dict[str, Any]) -> tuple[str, bool]:
    return str(action["double"]), bool(action.get("lock"))


def _action(legal: list[dict[str, Any]], key: tuple[str, bool]) -> dict[str, Any]:
    word, lock = key
    found = pick(legal, double=word, lock=lock)
    return found if found is not None else only(legal, double=word)


def judge_calls(
    view: View, history: History, offered: str, budget_ms: float, rng: random.Random
) -> dict[tuple[str, bool], tuple[float, float]] | None:
    """For the pass and each form of ``offered``: the mean game points (the
    seat's team minus the other) and the share of guessed deals the seat's
    team wins; None when the time ran out before ``MIN_SAMPLES``."""
    deadline = time.perf_counter() + budget_ms / 1000 * BUDGET_SHARE
    seat = view["seat"]
    team = (seat - 1) % 2
    deal = _deal_of(view)
    step = CALL_WORDS.index(offered)
    made = [(int(c["seat"]), c["call"]) for c in view.get("calls") or ()]
    callers = [s for s, c in made if c != "pass"]
    last = callers[-1] if callers else deal.bidder
    passed = {s for s, c in made[_last_call_index(made) + 1 :] if c == "pass"}
    options: list[tuple[str, bool]] = [("pass", False)]
    if deal.sun or offered == "gahwa":
        options.append((offered, False))
    else:
        options += [(offered, False), (offered, True)]
    memory = remember(view, history)
    faceup = history.get("faceup")
    evidence = inference.read_bids(view, faceup)
    totals = {k: [0.0, 0.0] for k in options}
    samples = 0
    while samples < CALL_SAMPLES and time.perf_counter() < deadline:
        guessed = inference.sample(memory, evidence, faceup, rng)
        if guessed is None:
            break
        hands = _masks(view, guessed)
        played: dict[bool, tuple[int, int]] = {}
        for key in options:
            word, lock = key
            if word == "pass":
                final = _after_pass(hands, deal, step, last, passed | {seat})
            else:
                final = settle_calls(hands, with_call(deal, word, seat, lock), step + 1, seat)
            if final.lock not in played:
                played[final.lock] = play_out(
                    hands, [], final.first, final.trump, final.lock, final.bidder
                )
            value = outcome(hands, final, team, card_points=played[final.lock])
            totals[key][0] += value
            totals[key][1] += value > 0
        samples += 1
    if samples < MIN_SAMPLES:
        return None
    return {k: (v[0] / samples, v[1] / samples) for k, v in totals.items()}


def _last_call_index(made: list[tuple[int, str]]) -> int:
    for i in range(len(made) - 1, -1, -1):
        if made[i][1] != "pass":
            return i
    return -1


def _after_pass(
    hands: tuple[int, int, int, int], deal: Deal, step: int, last: int, passed: set[int]
) -> Deal:
    """The multiplier once the seats in ``passed`` passed at ``step``: the other
    seat of that team may still call, and the answers go on from there."""
    word = CALL_WORDS[step]
    for other in (last % 4 + 1, (last + 2) % 4 + 1):
        if other not in passed and calls_with(hands[other - 1], deal, word):
            called = with_call(deal, word, other, lock_of(word))
            return settle_calls(hands, called, step + 1, other)
    return deal


def _deal_of(view: View) -> Deal:
    contract = view["contract"]
    trump = contract.get("trump")
    return Deal(
        contract["type"] if contract["type"] == "hokum" else "sun",
        SUITS.index(trump) if trump else -1,
        int(contract["bidder"]),
        int(view["dealer"]) % 4 + 1,
        True,
        int(contract.get("multiplier") or 1),
        bool(contract.get("lock")),
        bool(contract.get("gahwa")),
        _first_doubler(view),
    )


def _first_doubler(view: View) -> int:
    for c in view.get("calls") or ():
        if c["call"] != "pass":
            return int(c["seat"])
    return 0


def _masks(view: View, guessed: dict[int, list[str]]) -> tuple[int, int, int, int]:
    masks = [0, 0, 0, 0]
    for seat in (1, 2, 3, 4):
        held = view["hand"] if seat == view["seat"] else guessed[seat]
        for card in held:
            masks[seat - 1] |= 1 << CARD_OF[card]
    return (masks[0], masks[1], masks[2], masks[3])


def declare(view: View, history: History, budget_ms: float, rng: random.Random) -> dict[str, Any]:
    """The strong bot's declaration: the valid list with the best mean result on guessed deals."""
    proposed = declaring.declare(view)
    legal = view["legal"]
    deadline = time.perf_counter() + budget_ms / 1000 * BUDGET_SHARE
    seat = view["seat"]
    team = (seat - 1) % 2
    deal = _deal_of(view)
    options = [_projects(a["declare"]) for a in legal]
    memory = remember(view, history)
    faceup = history.get("faceup")
    evidence = inference.read_bids(view, faceup)
    shown = {seat: kinds for seat, kinds in _declared_kinds(view).items() if seat != view["seat"]}
    totals = [0.0] * len(options)
    samples = 0
    while samples < DECLARE_SAMPLES and time.perf_counter() < deadline:
        guessed = inference.sample(memory, evidence, faceup, rng)
        if guessed is None:
            break
        hands = _masks(view, guessed)
        fixed = {s: _stand_in(hands[s - 1], kinds, deal) for s, kinds in shown.items()}
        for s in (1, 2, 3, 4):
            if s != seat and s not in fixed:
                fixed[s] = best_declaration(hands[s - 1], deal)
        taken = play_out(hands, [], deal.first, deal.trump, deal.lock, deal.bidder)
        for i, option in enumerate(options):
            totals[i] += score(hands, deal, team, {**fixed, seat: option}, taken)
        samples += 1
    if samples < MIN_SAMPLES // 2:
        return proposed
    preferred = legal.index(proposed)

    def worth(i: int) -> tuple[float, bool]:
        cost = REVEAL_COST * sum(len(used) for _, used in options[i])
        return totals[i] / samples - cost, i == preferred

    return legal[max(range(len(legal)), key=worth)]


def _projects(items: list[dict[str, Any]]) -> tuple[Project, ...]:
    return tuple((str(p["project"]), tuple(sorted(CARD_OF[c] for c in p["cards"]))) for p in items)


def _declared_kinds(view: View) -> dict[int, list[str]]:
    """The project kinds each seat has declared so far (their cards are not shown yet)."""
    out: dict[int, list[str]] = {}
    for key, projects in (view.get("declarations") or {}).items():
        if projects is not None:
            out[int(key)] = [str(p["project"]) for p in projects]
    return out


def _stand_in(hand: int, kinds: list[str], deal: Deal) -> tuple[Project, ...]:
    """A declared seat's projects on a guessed hand: the guess's own declaration
    when it has the declared kinds, else the kinds with middling cards."""
    own = best_declaration(hand, deal)
    if sorted(k for k, _ in own) == sorted(kinds):
        return own
    return tuple((kind, _MIDDLING[kind]) for kind in kinds)


# Cards standing in for a declared project the guess does not hold: a run up
# to the J, or four Qs (only the comparison, D20, reads them).
_MIDDLING: dict[str, tuple[int, ...]] = {
    "sira": (2, 3, 4),
    "fifty": (1, 2, 3, 4),
    "hundred": (0, 1, 2, 3, 4),
    "four_hundred": (7, 15, 23, 31),
}
