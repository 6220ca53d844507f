"""The exact Sawa check of D26.

The claimer must win every remaining trick with its own card against any
legal play of the other three (its partner included), choosing each lead
after seeing the previous trick. The search is exact but small, because two
dominance facts hold for this all-or-nothing claim: an opponent never gains
by giving up a higher card of a suit instead of a lower one (ranks only ever
help it beat the claimer, and following rules look at suits alone), and the
claimer never gains by leading a higher card of a suit when a lower one of
that suit already wins. So each opponent has at most one reply per suit and
the claimer at most one lead per suit.
"""

from __future__ import annotations

from .cards import (
    PLAIN_BEST,
    PLAIN_STRENGTH,
    PLAIN_WEAKEST,
    SUIT_MASKS,
    TRUMP_BEST,
    TRUMP_STRENGTH,
    TRUMP_WEAKEST,
    card_at,
    suit_pattern,
)


def can_claim(hands: tuple[int, int, int, int], claimer: int, trump: int, lock: bool) -> bool:
    """True when ``claimer`` (a seat, on lead) surely wins every remaining trick."""
    i = claimer - 1
    memo: dict[tuple[int, int, int, int], bool] = {}
    return _wins(
        hands[i], hands[(i + 1) % 4], hands[(i + 2) % 4], hands[(i + 3) % 4], trump, lock, memo
    )


def _replies(hand: int, suit: int, trump: int) -> tuple[int, ...]:
    """The undominated cards (as one-bit masks) a seat may play to a lead in ``suit``."""
    pattern = suit_pattern(hand, suit)
    if pattern:
        weakest = (TRUMP_WEAKEST if suit == trump else PLAIN_WEAKEST)[pattern]
        return (1 << card_at(suit, weakest),)
    out = []
    for other in range(4):
        pattern = suit_pattern(hand, other)
        if pattern:
            weakest = (TRUMP_WEAKEST if other == trump else PLAIN_WEAKEST)[pattern]
            out.append(1 << card_at(other, weakest))
    return tuple(out)


def _wins(
    mine: int,
    a: int,
    b: int,
    c: int,
    trump: int,
    lock: bool,
    memo: dict[tuple[int, int, int, int], bool],
) -> bool:
    if not mine:
        return True
    key = (mine, a, b, c)
    known = memo.get(key)
    if known is not None:
        return known
    trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
    result = False
    for suit in range(4):
        pattern = suit_pattern(mine, suit)
        if not pattern:
            continue
        is_trump = suit == trump
        if is_trump and lock and mine & ~trump_mask:
            continue  # D4: no trump lead while holding another suit.
        best = TRUMP_BEST if is_trump else PLAIN_BEST
        threshold = -1
        beaten = False
        for other in (a, b, c):
            theirs = suit_pattern(other, suit)
            if theirs:
                if best[theirs] > threshold:
                    threshold = best[theirs]
            elif not is_trump and other & trump_mask:
                beaten = True  # D3: a void opponent holding trump must ruff.
                break
        if beaten:
            continue
        order = TRUMP_STRENGTH if is_trump else PLAIN_STRENGTH
        lead = -1
        lead_strength = 99
        for rank in range(8):
            if pattern >> rank & 1 and threshold < order[rank] < lead_strength:
                lead, lead_strength = rank, order[rank]
        if lead < 0:
            continue
        rest = mine & ~(1 << card_at(suit, lead))
        if _all_replies_lose(rest, a, b, c, suit, trump, lock, memo):
            result = True
            break
    memo[key] = result
    return result


def _all_replies_lose(
    rest: int,
    a: int,
    b: int,
    c: int,
    suit: int,
    trump: int,
    lock: bool,
    memo: dict[tuple[int, int, int, int], bool],
) -> bool:
    replies_b = _replies(b, suit, trump)
    replies_c = _replies(c, suit, trump)
    for ra in _replies(a, suit, trump):
        for rb in replies_b:
            for rc in replies_c:
                if not _wins(rest, a & ~ra, b & ~rb, c & ~rc, trump, lock, memo):
                    return False
    return True
