"""Quick playouts of a guessed deal on card masks: the strong bot's evaluation of a card.

A playout plays the rest of a deal whose hands are all known (one of the
strong bot's guesses, never the real hands) with a fast heuristic for every
seat, and counts the tricks out exactly with ``games.rules.solver`` once
``EXACT_FROM`` cards or fewer are left in each hand, where one solve takes
about a millisecond. It works on the engine's card masks and skips the
engine itself: no action dictionaries, no views, no legality re-checks, so
a whole playout costs a fraction of a millisecond.

The heuristic is the normal bot's habits with open cards: the bidding team
draws trumps with a card nothing beats, anyone cashes a card that is the
best of its suit, otherwise leads low from its longest suit; a follower
wins as cheaply as it can, feeds its partner's trick, or throws its
cheapest card; a valuable trump ruffs only a trick worth it.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.rules import solver
from games.rules.cards import (
    ALL_CARDS,
    PLAIN_BEST,
    PLAIN_STRENGTH,
    POINTS_BY_TRUMP,
    SUIT_MASKS,
    SUIT_OF,
    SUIT_SHIFT,
    TRUMP_BEST,
    TRUMP_STRENGTH,
    cards_of,
    rank_of,
    suit_of,
    trick_result,
)
from games.rules.scoring import LAST_TRICK_BONUS

# From this many cards per hand down, the rest is solved exactly.
EXACT_FROM = 2
# Ruffing with a trump worth more than ``CHEAP_TRUMP`` needs this much on the table.
WORTH_A_TRUMP = 10
CHEAP_TRUMP = 4

# Trick power by card for each trump (index trump + 1): a trump's strength
# plus 100, a plain card's strength.
POWER = tuple(
    tuple(
        100 + TRUMP_STRENGTH[rank_of(c)] if suit_of(c) == t else PLAIN_STRENGTH[rank_of(c)]
        for c in ALL_CARDS
    )
    for t in (-1, 0, 1, 2, 3)
)


def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> tuple[int, int]:
    """The seat taking the cards played so far, and its card."""
    power = POWER[trump + 1]
    led = SUIT_OF[trick[0][1]]
    seat, best = trick[0]
    for s, c in trick[1:]:
        if SUIT_OF[c] in (led, trump) and power[c] > power[best]:
            seat, best = s, c
    return seat, best


def take_trick(
    trick: Sequence[tuple[int, int]], hands: Sequence[int], trump: int, taken: list[int]
) -> int:
    """Credit a complete trick to its winner's team in ``taken`` (A, B), with the
    last trick's 10 once the hands are empty; returns the winning seat."""
    winner, gain = trick_result(tuple(trick), trump)
    if not hands[winner - 1]:
        gain += LAST_TRICK_BONUS
    taken[(winner - 1) % 2] += gain
    return winner


def play_out(
    hands: Sequence[int],
    trick: Sequence[tuple[int, int]],
    turn: int,
    trump: int,
    lock: bool,
    bidder: int,
) -> tuple[int, int]:
    """The card points (A, B) still to be taken from this position: cards on
    the table and in hands and the last trick's 10, played out by the heuristic
    and solved exactly at the end."""
    hands = list(hands)
    trick = list(trick)
    taken = [0, 0]
    while True:
        if not trick:
            left = max(h.bit_count() for h in hands)
            if left == 0:
                return taken[0], taken[1]
            if left <= EXACT_FROM:
                a, b = solver.value(
                    solver.Position((hands[0], hands[1], hands[2], hands[3]), (), turn, trump, lock)
                )
                return taken[0] + a, taken[1] + b
        card = choose(hands, trick, turn, trump, lock, bidder)
        hands[turn - 1] &= ~(1 << card)
        trick.append((turn, card))
        if len(trick) == 4:
            turn = take_trick(trick, hands, trump, taken)
            trick = []
        else:
            turn = turn % 4 + 1


def choose(
    hands: Sequence[int],
    trick: Sequence[tuple[int, int]],
    turn: int,
    trump: int,
    lock: bool,
    bidder: int,
) -> int:
    """The heuristic's card for ``turn``, every hand being open."""
    hand = hands[turn - 1]
    legal = solver.legal_cards(hand, trick, trump, lock)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    cards = cards_of(legal)
    points = POINTS_BY_TRUMP[trump + 1]
    power = POWER[trump + 1]
    outside = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
    for _, c in trick:
        outside &= ~(1 << c)
    if not trick:
        return _lead(hand, cards, outside, turn, trump, bidder, points, power)
    led = SUIT_OF[trick[0][1]]
    top_seat, top_card = trick_winner(trick, trump)
    top_power = power[top_card]
    winning = [c for c in cards if SUIT_OF[c] in (led, trump) and power[c] > top_power]
    losing = [c for c in cards if c not in winning]

    def cost(c: int) -> tuple[int, bool, int]:
        return points[c], SUIT_OF[c] == trump, power[c]

    partner = (turn + 1) % 4 + 1
    behind = [(turn + k - 1) % 4 + 1 for k in range(1, 4 - len(trick))]
    if (top_seat - turn) % 2 == 0:
        # The partner holds the trick: feed it when nobody behind can take it.
        safe = not any(_beats_from(hands[s - 1], led, top_card, trump, power) for s in behind)
        if safe and losing:
            plain = [c for c in losing if SUIT_OF[c] != trump] or losing
            return max(plain, key=lambda c: (points[c], -power[c]))
        return min(losing or cards, key=cost)
    if not winning:
        return min(cards, key=cost)
    # Win with the cheapest card that holds against the seats still to play.
    holding = [
        c
        for c in winning
        if not any(_beats_from(hands[s - 1], led, c, trump, power) for s in behind if s != partner)
    ]
    if holding:
        card = min(holding, key=power.__getitem__)
        if SUIT_OF[card] == trump and led != trump and losing:
            on_table = sum(points[c] for _, c in trick)
            if on_table < WORTH_A_TRUMP and points[card] > CHEAP_TRUMP:
                return min(losing, key=cost)
        return card
    return min(losing or cards, key=cost)


def _beats_from(hand: int, led: int, card: int, trump: int, power: Sequence[int]) -> bool:
    """True when a seat holding ``hand`` can take a trick led in ``led`` that ``card`` holds."""
    pattern = hand >> SUIT_SHIFT[led] & 0xFF
    if pattern:
        best = 100 + TRUMP_BEST[pattern] if led == trump else PLAIN_BEST[pattern]
    elif trump >= 0 and hand >> SUIT_SHIFT[trump] & 0xFF:
        best = 100 + TRUMP_BEST[hand >> SUIT_SHIFT[trump] & 0xFF]
    else:
        return False
    card_power = power[card] if SUIT_OF[card] in (led, trump) else -1
    return best > card_power


def _lead(
    hand: int,
    cards: list[int],
    outside: int,
    turn: int,
    trump: int,
    bidder: int,
    points: Sequence[int],
    power: Sequence[int],
) -> int:
    best_out = [
        (TRUMP_BEST if s == trump else PLAIN_BEST)[outside >> shift & 0xFF]
        for s, shift in enumerate(SUIT_SHIFT)
    ]
    if trump >= 0 and (bidder - turn) % 2 == 0:
        trumps = [c for c in cards if SUIT_OF[c] == trump]
        opponents_trumps = outside & SUIT_MASKS[trump]
        if trumps and opponents_trumps:
            top = max(trumps, key=power.__getitem__)
            if power[top] - 100 > best_out[trump]:
                return top
    masters = [c for c in cards if SUIT_OF[c] != trump and power[c] > best_out[SUIT_OF[c]]]
    if masters:
        return max(masters, key=points.__getitem__)
    plain = [c for c in cards if SUIT_OF[c] != trump] or cards
    lengths = [(hand >> shift & 0xFF).bit_count() for shift in SUIT_SHIFT]
    return min(plain, key=lambda c: (-lengths[SUIT_OF[c]], power[c]))
