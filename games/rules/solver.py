"""The exact double-dummy solver: card points with best play by all four.

Given every hand and the position of a deal being played, the solver finds
how many card points each team takes from here on when all four seats play
perfectly and see every card (D1 card points, the last trick's 10 included;
D2 trick order; D3 follow suit and must trump; D4 the lock). Baloot and
projects are not card points taken in tricks, so they are left out; a Sawa
claim (D26) is worth what the claimer's team would take by playing the hand
out, since a valid claim wins every remaining trick.

The search is alpha-beta over single cards with a transposition table at
trick boundaries (bounds on the points team A takes from that trick on,
keyed by the four hands and the leader) and move ordering (the stored best
lead first; followers try the card that wins cheaply or feeds the partner).
Equivalent cards are searched once: two cards of one hand, of one suit,
with the same card points and no card still in play between them in trick
order, lead to the same outcomes.

Public names: ``Position``, ``position_of``, ``value``, ``remaining_points``,
``card_values``, ``best_cards``, ``action_values``, ``legal_cards``,
``DealSolver``, ``OutOfTime`` and ``SOLVER_VERSION``; see ``docs/rules-api.md``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import (
    ALL_CARDS,
    CARD_OF,
    CARD_STR,
    PLAIN_POINTS,
    PLAIN_STRENGTH,
    SUIT_MASKS,
    SUIT_OF,
    SUIT_SHIFT,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
    card_at,
    cards_of,
    rank_of,
    suit_of,
    suit_pattern,
)
from .engine import legal_actions
from .scoring import LAST_TRICK_BONUS
from .state import Phase, State

SOLVER_VERSION = 1

_INFINITY = 1 << 20
# (suit, SUIT_SHIFT[suit]) for the four suits, for the search's per-node loop.
_SUIT_SHIFTS = tuple(enumerate(SUIT_SHIFT))
# SUIT_SHIFT by name, for the search's remaining-points sum.
_S, _H, _D, _C = SUIT_SHIFT


@dataclass(frozen=True, slots=True)
class Position:
    """A deal in play with every hand known.

    ``hands`` are card masks for seats 1-4 (card ``c`` is bit ``c``, as in
    ``games.rules.cards``); ``trick`` the cards already on the table, as
    (seat, card) pairs in play order; ``turn`` the seat to act; ``trump`` the
    trump suit index or -1 in Sun; ``lock`` D4's locked game.
    """

    hands: tuple[int, int, int, int]
    trick: tuple[tuple[int, int], ...]
    turn: int
    trump: int
    lock: bool

    @classmethod
    def from_cards(
        cls,
        hands: Sequence[Sequence[str]],
        trick: Sequence[tuple[int, str]],
        turn: int,
        trump: str | None,
        lock: bool = False,
    ) -> Position:
        """A position from notation cards; ``hands`` lists seats 1-4.

        Raises ValueError for an unknown card, a card held twice, uneven
        hands or a ``turn`` that does not follow the trick.
        """
        masks = []
        seen = 0
        for hand in hands:
            mask = 0
            for text in hand:
                card = CARD_OF.get(text)
                if card is None:
                    raise ValueError(f"unknown card {text!r}")
                if (seen | mask) >> card & 1:
                    raise ValueError(f"card {text} appears twice")
                mask |= 1 << card
            seen |= mask
            masks.append(mask)
        if len(masks) != 4:
            raise ValueError("a position has four hands")
        played = []
        for seat, text in trick:
            card = CARD_OF.get(text)
            if card is None or seen >> card & 1:
                raise ValueError(f"bad trick card {text!r}")
            seen |= 1 << card
            played.append((seat, card))
        trump_index = "SHDC".index(trump) if trump else -1
        position = cls(
            (masks[0], masks[1], masks[2], masks[3]), tuple(played), turn, trump_index, lock
        )
        position.check()
        return position

    def check(self) -> None:
        """Raises ValueError unless the hands and the trick fit together."""
        if len(self.trick) > 3:
            raise ValueError("a trick in progress holds at most three cards")
        leader = self.trick[0][0] if self.trick else self.turn
        for k, (seat, _) in enumerate(self.trick):
            if seat != (leader - 1 + k) % 4 + 1:
                raise ValueError("the trick's cards are not in turn order")
        if self.turn != (leader - 1 + len(self.trick)) % 4 + 1:
            raise ValueError("the seat to act does not follow the trick")
        sizes = [h.bit_count() for h in self.hands]
        played = {seat for seat, _ in self.trick}
        full = max(sizes)
        for seat in range(1, 5):
            expected = full - 1 if seat in played else full
            if sizes[seat - 1] != expected:
                raise ValueError("the hands do not hold the same number of cards")
        if full == 0:
            raise ValueError("no card is left to play")


def position_of(state: State) -> Position:
    """The position of a deal being played, every hand included.

    Raises ValueError outside the playing phase.
    """
    if state.phase is not Phase.PLAYING or state.turn is None:
        raise ValueError("the solver works on a deal whose cards are being played")
    return Position(state.hands, state.trick, state.turn, state.trump, state.lock)


def value(position: Position) -> tuple[int, int]:
    """The card points (team A, team B) still to be taken, with best play by all four."""
    solver = _Solver(position.trump, position.lock)
    a = solver.solve(position)
    return a, solver.remaining(position) - a


def remaining_points(position: Position) -> int:
    """Card points still to be taken: cards in hands and on the table, and the last 10."""
    return _Solver(position.trump, position.lock).remaining(position)


class OutOfTime(Exception):
    """The search passed its deadline before finishing."""


def card_values(position: Position, deadline: float | None = None) -> dict[str, tuple[int, int]]:
    """For every card the seat to act may play: the card points (A, B) still to
    be taken, this card included, with best play afterwards.

    ``deadline`` is a ``time.perf_counter()`` value; past it the search
    raises OutOfTime.
    """
    solver = _Solver(position.trump, position.lock, deadline)
    total = solver.remaining(position)
    out: dict[str, tuple[int, int]] = {}
    for card, a in solver.children(position):
        out[CARD_STR[card]] = (a, total - a)
    return out


def best_cards(position: Position) -> list[str]:
    """The cards that keep the best value for the side to act."""
    values = card_values(position)
    team = (position.turn - 1) % 2
    best = max(v[team] for v in values.values())
    return sorted(card for card, v in values.items() if v[team] == best)


def action_values(state: State) -> list[tuple[dict[str, Any], tuple[int, int]]]:
    """Every legal action of the seat to act with the card points (A, B) still
    to be taken after it, with best play afterwards.

    A Sawa claim gives the claimer's team every remaining card and the last
    trick's 10; a card announced with Baloot is worth the card alone. Raises
    ValueError outside the playing phase.
    """
    position = position_of(state)
    values = {CARD_OF[card]: v for card, v in card_values(position).items()}
    solver = _Solver(position.trump, position.lock)
    total = solver.remaining(position)
    out: list[tuple[dict[str, Any], tuple[int, int]]] = []
    for action in legal_actions(state):
        if action.get("sawa"):
            team = (action["seat"] - 1) % 2
            out.append((action, (total, 0) if team == 0 else (0, total)))
        else:
            out.append((action, values[CARD_OF[action["play"]]]))
    return out


class DealSolver:
    """Searches of the positions of one deal, sharing their transposition table.

    The table holds bounds on the points team A takes from a trick on, keyed
    by the four hands and the leader: a complete position under one trump and
    lock, whichever search proved them. So whatever one search of a deal
    proved stays true for the next, and a position reached later in the deal
    (its subtree searched before) is mostly answered from the table. Values
    are exactly those of ``value`` and ``best_cards``.
    """

    __slots__ = ("_solvers",)

    def __init__(self) -> None:
        self._solvers: dict[tuple[int, bool], _Solver] = {}

    def _solver(self, position: Position) -> _Solver:
        key = (position.trump, position.lock)
        found = self._solvers.get(key)
        if found is None:
            found = self._solvers[key] = _Solver(position.trump, position.lock)
        return found

    def value(self, position: Position, guess: int | None = None) -> tuple[int, int]:
        """``value(position)``; ``guess`` (team A's expected points, same counting)
        is tried first: when it is right, two zero-window searches prove it."""
        solver = self._solver(position)
        total = solver.remaining(position)
        a = solver.solve(position, guess)
        return a, total - a

    def best_cards(self, position: Position, value: tuple[int, int] | None = None) -> list[str]:
        """``best_cards(position)``; ``value`` must be ``value(position)`` when given.

        Knowing the best value, each card needs one zero-window search ("does
        it reach the value?") instead of the search of its exact value.
        """
        solver = self._solver(position)
        a = self.value(position)[0] if value is None else value[0]
        return sorted(CARD_STR[card] for card in solver.reaching(position, a))


def legal_cards(hand: int, trick: Sequence[tuple[int, int]], trump: int, lock: bool) -> int:
    """The mask of cards a hand may play to ``trick`` (D3, D4), as the engine rules."""
    if not trick:
        if lock and trump >= 0:
            others = hand & ~SUIT_MASKS[trump]
            if others:
                return others
        return hand
    follow = hand & SUIT_MASKS[suit_of(trick[0][1])]
    if follow:
        return follow
    if trump >= 0:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


_Tables = tuple[
    tuple[int, ...],
    tuple[int, ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    dict[int, tuple[int, ...]],
]
# Per trump (-1 for Sun): the tables every search with that trump shares.
_TABLES: dict[int, _Tables] = {}


def _tables(trump: int) -> _Tables:
    """Card points and trick power by card, card points and best power by suit
    pattern, and an empty cache of equivalent-card runs (``_representatives``)."""
    points = tuple(
        (TRUMP_POINTS if suit_of(c) == trump else PLAIN_POINTS)[rank_of(c)] for c in ALL_CARDS
    )
    # Trick power: a trump beats every plain card; a plain card only
    # counts in the led suit (``_card`` checks the suit).
    power = tuple(
        100 + TRUMP_STRENGTH[rank_of(c)] if suit_of(c) == trump else PLAIN_STRENGTH[rank_of(c)]
        for c in ALL_CARDS
    )
    suit_points = tuple(
        tuple(
            sum(points[card_at(s, r)] for r in range(8) if pattern >> r & 1)
            for pattern in range(256)
        )
        for s in range(4)
    )
    best_power = tuple(
        tuple(
            max((power[card_at(s, r)] for r in range(8) if pattern >> r & 1), default=-1)
            for pattern in range(256)
        )
        for s in range(4)
    )
    return points, power, suit_points, best_power, {}


class _Solver:
    """One search: the trump, the lock and the transposition table."""

    __slots__ = (
        "best_lead",
        "best_power",
        "deadline",
        "groups",
        "lock",
        "points",
        "power",
        "suit_points",
        "table",
        "ticks",
        "trump",
        "trump_mask",
    )

    def __init__(self, trump: int, lock: bool, deadline: float | None = None) -> None:
        self.deadline = deadline
        self.ticks = 0
        self.trump = trump
        self.lock = lock and trump >= 0
        self.trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
        tables = _TABLES.get(trump)
        if tables is None:
            tables = _TABLES[trump] = _tables(trump)
        self.points, self.power, self.suit_points, self.best_power, self.groups = tables
        self.table: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        self.best_lead: dict[tuple[int, int, int, int, int], int] = {}

    def remaining(self, position: Position) -> int:
        """Card points still to be taken: cards in hands and on the table, and the last 10."""
        cards = position.hands[0] | position.hands[1] | position.hands[2] | position.hands[3]
        for _, card in position.trick:
            cards |= 1 << card
        return self._rest_points(cards)

    def _rest_points(self, cards: int) -> int:
        sp = self.suit_points
        return (
            LAST_TRICK_BONUS
            + sp[0][cards >> _S & 0xFF]
            + sp[1][cards >> _H & 0xFF]
            + sp[2][cards >> _D & 0xFF]
            + sp[3][cards >> _C & 0xFF]
        )

    def _start(self, position: Position) -> tuple[list[int], int, list[int], int, int]:
        """The search's form of a position: hands, leader (0-3), trick, winning power and place."""
        hands = list(position.hands)
        trick = [card for _, card in position.trick]
        leader = position.trick[0][0] - 1 if position.trick else position.turn - 1
        top, top_at = -1, 0
        if trick:
            led = suit_of(trick[0])
            for k, card in enumerate(trick):
                suit = suit_of(card)
                p = self.power[card] if suit == led or suit == self.trump else -1
                if p > top:
                    top, top_at = p, k
        return hands, leader, trick, top, top_at

    def solve(self, position: Position, guess: int | None = None) -> int:
        """The points team A takes from the current trick on (this trick included);
        ``guess`` is tried first (``_bisect``)."""
        hands, leader, trick, top, top_at = self._start(position)
        return self._bisect(hands, leader, trick, top, top_at, self.remaining(position), guess)

    def reaching(self, position: Position, target: int) -> list[int]:
        """The cards the seat to act may play that keep ``target``, the position's
        exact value (team A's points from the current trick on). One card of a
        run of equivalent cards (``_runs``) answers for the whole run."""
        hands, leader, trick, top, top_at = self._start(position)
        seat = position.turn - 1
        playable = legal_cards(hands[seat], position.trick, self.trump, self.lock)
        in_play = hands[0] | hands[1] | hands[2] | hands[3]
        for card in trick:
            in_play |= 1 << card
        out: list[int] = []
        for suit in (0, 1, 2, 3):
            mine = suit_pattern(playable, suit)
            if mine:
                for run in self._runs(suit, mine, suit_pattern(in_play, suit)):
                    if self._keeps(hands, leader, trick, top, top_at, seat, run[0], target):
                        out += run
        return out

    def _keeps(
        self,
        hands: list[int],
        leader: int,
        trick: list[int],
        top: int,
        top_at: int,
        seat: int,
        card: int,
        target: int,
    ) -> bool:
        """Whether ``seat`` playing ``card`` keeps ``target``, by one zero-window search.

        No card is better for its side than the position's value: team A's
        card keeps it when it reaches at least ``target``, team B's when it
        holds team A to at most ``target``.
        """
        maximizing = not seat & 1
        alpha, beta = (target - 1, target) if maximizing else (target, target + 1)
        hands[seat] ^= 1 << card
        trick.append(card)
        k = len(trick) - 1
        suit = suit_of(card)
        p = self.power[card] if suit == suit_of(trick[0]) or suit == self.trump else -1
        t, t_at = (p, k) if p > top else (top, top_at)
        if k == 3:
            v = self._finish(hands, leader, trick, t_at, alpha, beta)
        else:
            v = self._card(hands, leader, trick, t, t_at, alpha, beta, None)
        trick.pop()
        hands[seat] ^= 1 << card
        return v >= target if maximizing else v <= target

    def children(self, position: Position) -> list[tuple[int, int]]:
        """(card, points team A takes) for every card the seat to act may play,
        the points counted from the start of the current trick."""
        hands, leader, trick, top, top_at = self._start(position)
        total = self.remaining(position)
        seat = position.turn - 1
        playable = legal_cards(hands[seat], position.trick, self.trump, self.lock)
        out = []
        for card in cards_of(playable):
            hands[seat] ^= 1 << card
            trick.append(card)
            k = len(trick) - 1
            suit = suit_of(card)
            p = self.power[card] if suit == suit_of(trick[0]) or suit == self.trump else -1
            t, t_at = (p, k) if p > top else (top, top_at)
            if k == 3:
                v = self._bisect_finish(hands, leader, trick, t_at, total)
            else:
                v = self._bisect(hands, leader, trick, t, t_at, total)
            trick.pop()
            hands[seat] ^= 1 << card
            out.append((card, v))
        return out

    def _bisect(
        self,
        hands: list[int],
        leader: int,
        trick: list[int],
        top: int,
        top_at: int,
        total: int,
        guess: int | None = None,
    ) -> int:
        """The exact value by zero-window searches: each one only answers "at
        least ``beta``?", which prunes far more than a full window, and the
        table keeps what earlier ones proved. ``total`` bounds the value.
        A ``guess`` is tested first ("at least it?", then "more?"), and the
        bisection takes over once it fails."""
        low, high = 0, total
        while low < high:
            if guess is not None and low < guess <= high:
                beta = guess
            elif guess is not None and low <= guess < high:
                beta = guess + 1
            else:
                beta = (low + high + 1) // 2
            if trick:
                v = self._card(hands, leader, trick, top, top_at, beta - 1, beta, None)
            else:
                v = self._trick(hands, leader, beta - 1, beta)
            if v >= beta:
                low = v
            else:
                high = v
        return low

    def _bisect_finish(
        self, hands: list[int], leader: int, trick: list[int], top_at: int, total: int
    ) -> int:
        """``_bisect`` for a complete trick (``_finish``)."""
        low, high = 0, total
        while low < high:
            beta = (low + high + 1) // 2
            v = self._finish(hands, leader, trick, top_at, beta - 1, beta)
            if v >= beta:
                low = v
            else:
                high = v
        return low

    def _finish(
        self, hands: list[int], leader: int, trick: list[int], top_at: int, alpha: int, beta: int
    ) -> int:
        """Points team A takes from a complete trick on; ``top_at`` is its winning place."""
        points = self.points
        total = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        nxt = (leader + top_at) & 3
        if not (hands[0] | hands[1] | hands[2] | hands[3]):
            total += LAST_TRICK_BONUS
            return 0 if nxt & 1 else total
        if nxt & 1:
            return self._trick(hands, nxt, alpha, beta)
        return total + self._trick(hands, nxt, alpha - total, beta - total)

    def _trick(self, hands: list[int], leader: int, alpha: int, beta: int) -> int:
        """Points team A takes from a trick that ``leader`` (0-3) leads, on."""
        if not hands[leader] & (hands[leader] - 1):
            return self._last(hands, leader)
        if self.deadline is not None:
            self.ticks += 1
            if not self.ticks & 0xFF and time.perf_counter() > self.deadline:
                raise OutOfTime
        key = (hands[0], hands[1], hands[2], hands[3], leader)
        entry = self.table.get(key)
        if entry is None:
            low, high = 0, self._rest_points(hands[0] | hands[1] | hands[2] | hands[3])
        else:
            low, high = entry
            if low == high:
                return low
        if low >= beta:
            return low
        if high <= alpha:
            return high
        a = alpha if alpha > low else low
        b = beta if beta < high else high
        v = self._card(hands, leader, [], -1, 0, a, b, key)
        if v <= a:
            high = v
        elif v >= b:
            low = v
        else:
            low = high = v
        self.table[key] = (low, high)
        return v

    def _last(self, hands: list[int], leader: int) -> int:
        """Points team A takes in the last trick, every hand holding one card."""
        points = self.points
        power = self.power
        trump = self.trump
        suit_of_card = SUIT_OF
        lead = hands[leader].bit_length() - 1
        led = suit_of_card[lead]
        top, winner = power[lead], leader
        total = points[lead] + LAST_TRICK_BONUS
        for k in (1, 2, 3):
            seat = (leader + k) & 3
            card = hands[seat].bit_length() - 1
            total += points[card]
            suit = suit_of_card[card]
            if (suit in (led, trump)) and power[card] > top:
                top, winner = power[card], seat
        return 0 if winner & 1 else total

    def _card(
        self,
        hands: list[int],
        leader: int,
        trick: list[int],
        top: int,
        top_at: int,
        alpha: int,
        beta: int,
        key: tuple[int, int, int, int, int] | None,
    ) -> int:
        """Points team A takes from the current trick on, ``len(trick)`` cards in;
        ``top`` is the power winning the trick so far and ``top_at`` its place."""
        k = len(trick)
        seat = (leader + k) & 3
        hand = hands[seat]
        trump = self.trump
        power = self.power
        points = self.points
        suit_of_card = SUIT_OF
        in_play = hands[0] | hands[1] | hands[2] | hands[3]
        if k:
            led = suit_of_card[trick[0]]
            playable = hand & SUIT_MASKS[led] or hand & self.trump_mask or hand
            for card in trick:
                in_play |= 1 << card
        else:
            led = -1
            playable = hand & ~self.trump_mask if self.lock else hand
            if not playable:
                playable = hand
        groups = self.groups
        cards: list[int] = []
        for suit, shift in _SUIT_SHIFTS:
            mine = playable >> shift & 0xFF
            if mine:
                theirs = in_play >> shift & 0xFF
                gkey = suit << 16 | mine << 8 | theirs
                reps = groups.get(gkey)
                if reps is None:
                    reps = self._representatives(suit, mine, theirs)
                    groups[gkey] = reps
                cards += reps
        if len(cards) > 1:
            cards = self._order(cards, k, led, top, top_at, in_play, key)
        maximizing = not seat & 1
        best = -_INFINITY if maximizing else _INFINITY
        best_card = -1
        for card in cards:
            hands[seat] = hand ^ (1 << card)
            trick.append(card)
            if k:
                suit = suit_of_card[card]
                p = power[card] if suit in (led, trump) else -1
            else:
                p = power[card]
            if p > top:
                t, t_at = p, k
            else:
                t, t_at = top, top_at
            if k == 3:
                total = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[card]
                nxt = (leader + t_at) & 3
                if not (hands[0] | hands[1] | hands[2] | hands[3]):
                    v = 0 if nxt & 1 else total + LAST_TRICK_BONUS
                elif nxt & 1:
                    v = self._trick(hands, nxt, alpha, beta)
                else:
                    v = total + self._trick(hands, nxt, alpha - total, beta - total)
            else:
                v = self._card(hands, leader, trick, t, t_at, alpha, beta, None)
            trick.pop()
            hands[seat] = hand
            if maximizing:
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, best_card = v, card
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if key is not None:
            self.best_lead[key] = best_card
        return best

    def _order(
        self,
        cards: list[int],
        k: int,
        led: int,
        top: int,
        top_at: int,
        in_play: int,
        key: tuple[int, int, int, int, int] | None,
    ) -> list[int]:
        """Best guesses first: the stored best lead, then cards that win the
        trick (cheaply when an opponent holds it), then cheap discards."""
        points = self.points
        power = self.power
        suit_of_card = SUIT_OF
        if not k:
            first = self.best_lead.get(key, -1) if key is not None else -1
            best_power = self.best_power
            ranked = []
            for card in cards:
                suit = suit_of_card[card]
                if card == first:
                    ranked.append((-1000, card))
                elif power[card] == best_power[suit][in_play >> SUIT_SHIFT[suit] & 0xFF]:
                    ranked.append((-100 - points[card], card))  # a master: cash it
                else:
                    ranked.append((points[card], card))
            ranked.sort()
            return [card for _, card in ranked]
        trump = self.trump
        if (k - top_at) % 2 == 0:
            # The partner holds the trick: feed it points.
            return sorted(cards, key=points.__getitem__, reverse=True)
        ranked = []
        for card in cards:
            suit = suit_of_card[card]
            p = power[card] if suit in (led, trump) else -1
            ranked.append((p - 1000 if p > top else points[card], card))
        ranked.sort()
        return [card for _, card in ranked]

    def _representatives(self, suit: int, mine: int, in_play: int) -> tuple[int, ...]:
        """One card per run of equivalent cards in ``mine`` (8-bit suit patterns)."""
        return tuple(run[0] for run in self._runs(suit, mine, in_play))

    def _runs(self, suit: int, mine: int, in_play: int) -> list[list[int]]:
        """The runs of equivalent cards in ``mine`` (8-bit suit patterns): cards of
        one hand with the same card points and no card still in play between them
        in trick order, which lead to the same outcomes."""
        order = TRUMP_STRENGTH if suit == self.trump else PLAIN_STRENGTH
        points = TRUMP_POINTS if suit == self.trump else PLAIN_POINTS
        ranks = sorted((r for r in range(8) if (in_play | mine) >> r & 1), key=lambda r: order[r])
        runs: list[list[int]] = []
        previous = -1  # the last card of ``mine`` seen just below, in trick order
        for r in ranks:
            if mine >> r & 1:
                if previous >= 0 and points[previous] == points[r]:
                    runs[-1].append(card_at(suit, r))
                else:
                    runs.append([card_at(suit, r)])
                previous = r
            else:
                previous = -1
        return runs
