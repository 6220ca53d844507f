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

Before the search, three cheap necessary conditions turn down most hands
(``_hopeless``); the search decides the rest. A test compares the filtered
check with the bare search on thousands of random positions.
"""

from __future__ import annotations

from .cards import (
    PLAIN_BEST,
    PLAIN_STRENGTH,
    PLAIN_WEAKEST,
    SUIT_MASKS,
    SUIT_SHIFT,
    TRUMP_BEST,
    TRUMP_STRENGTH,
    TRUMP_WEAKEST,
    card_at,
    suit_pattern,
)


def can_claim(hands: tuple[int, int, int, int], claimer: int, trump: int, lock: bool) -> bool:
    """True when ``claimer`` (a seat, on lead) surely wins every remaining trick; never raises."""
    i = claimer - 1
    mine = hands[i]
    a, b, c = hands[(i + 1) % 4], hands[(i + 2) % 4], hands[(i + 3) % 4]
    # The quickest refusal, which turns down nearly every hand met in play:
    # an other seat holding a card above the claimer's best of a suit the
    # claimer holds (condition 1 of _hopeless for the first lead of that suit).
    others = a | b | c
    trump_shift = SUIT_SHIFT[trump] if trump >= 0 else -1
    for shift in SUIT_SHIFT:
        pattern = mine >> shift & 0xFF
        if pattern:
            theirs = others >> shift & 0xFF
            if theirs:
                best = TRUMP_BEST if shift == trump_shift else PLAIN_BEST
                if best[theirs] > best[pattern]:
                    return False
    if _hopeless(mine, a, b, c, trump, lock):
        return False
    if trump < 0 or not lock:
        return True  # see _hopeless: its conditions are then also sufficient
    trump_mask = SUIT_MASKS[trump]
    if not mine & ~trump_mask or not (a | b | c) & trump_mask:
        return True
    return _wins(mine, a, b, c, trump, lock, {})


def search_claim(hands: tuple[int, int, int, int], claimer: int, trump: int, lock: bool) -> bool:
    """``can_claim`` by the search alone, without the quick refusals; never raises.

    Kept for the test that proves the refusals exact.
    """
    i = claimer - 1
    return _wins(
        hands[i], hands[(i + 1) % 4], hands[(i + 2) % 4], hands[(i + 3) % 4], trump, lock, {}
    )


def _hopeless(mine: int, a: int, b: int, c: int, trump: int, lock: bool) -> bool:
    """True when a claim surely fails, by one of three necessary conditions.

    Every card of every hand is played before the deal ends, the claimer
    leads every trick, and a card is forced out of a hand only when it is the
    last of the led suit or must ruff (which beats the claimer anyway). So:

    1. In each suit the claimer holds (k cards), an other seat holding m
       cards of it can keep its best one for any of the claimer's first
       min(k, m) leads of that suit, following with the others before; the
       claimer's min(k, m)-th best card of the suit must beat it.
    2. No other seat may hold more trumps than the claimer: a trump played on
       a plain lead beats it, so each of their trumps must fall on one of the
       claimer's trump leads.
    3. In a locked game (D4) the claimer leads no trump while it holds another
       suit, so an other seat void in one of the claimer's plain suits but
       holding a trump ruffs its first lead there.

    Without a lock (or when the claimer holds only trumps, or nobody else
    holds one) conditions 1 and 2 are also sufficient: the claimer leads its
    trumps from the top, which draws every other trump (2) and wins (1), then
    each plain suit from the top, which wins (1) since nobody can ruff and
    discards only weaken the other hands. So only a locked game where others
    hold trumps needs the search.
    """
    for suit in range(4):
        shift = SUIT_SHIFT[suit]
        pattern = mine >> shift & 0xFF
        if not pattern:
            continue
        if suit == trump:
            best, kth = TRUMP_BEST, _TRUMP_KTH
        else:
            best, kth = PLAIN_BEST, _PLAIN_KTH
        held = _COUNT[pattern]
        for other in (a, b, c):
            theirs = other >> shift & 0xFF
            if theirs and best[theirs] > kth[pattern][min(held, _COUNT[theirs])]:
                return True
    if trump >= 0:
        trump_mask = SUIT_MASKS[trump]
        held = (mine & trump_mask).bit_count()
        if (
            (a & trump_mask).bit_count() > held
            or (b & trump_mask).bit_count() > held
            or (c & trump_mask).bit_count() > held
        ):
            return True
        if lock:
            plain = mine & ~trump_mask
            for suit in range(4):
                if suit == trump or not plain & SUIT_MASKS[suit]:
                    continue
                for other in (a, b, c):
                    if not other & SUIT_MASKS[suit] and other & trump_mask:
                        return True
    return False


def _kth_tables(order: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """For every 8-bit pattern of one suit: index k (1-8) holds the strength of
    its k-th best card (-1 past its size)."""
    table = []
    for pattern in range(256):
        strengths = sorted((order[r] for r in range(8) if pattern >> r & 1), reverse=True)
        table.append(tuple([-1, *strengths] + [-1] * (8 - len(strengths))))
    return tuple(table)


_PLAIN_KTH = _kth_tables(PLAIN_STRENGTH)
_TRUMP_KTH = _kth_tables(TRUMP_STRENGTH)
_COUNT = tuple(bin(pattern).count("1") for pattern in range(256))


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
