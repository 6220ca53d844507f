"""Projects (mashari'): detection, validation and comparison, D18-D20.

A project is a ``(kind, cards)`` pair: ``kind`` one of ``sira``, ``fifty``,
``hundred``, ``four_hundred`` and ``cards`` a sorted tuple of card ints.
Runs follow the natural order 7 8 9 T J Q K A in one suit (D19).
"""

from __future__ import annotations

import functools
import itertools

from .cards import CARD_STR, SUIT_MASKS, SUIT_SHIFT, Rank, card_at, rank_of, suit_of, suit_pattern
from .errors import InvalidDeclaration
from .shapes import ProjectItem

Project = tuple[str, tuple[int, ...]]

KINDS = ("sira", "fifty", "hundred", "four_hundred")
VALUES = {"sira": 20, "fifty": 50, "hundred": 100, "four_hundred": 200}
RUN_KIND = {3: "sira", 4: "fifty", 5: "hundred"}
KIND_RANK = {"sira": 1, "fifty": 2, "hundred": 3, "four_hundred": 4}
# D19: four of a kind that counts: K, Q, J, T always, A (Hokum: Hundred,
# Sun: Four Hundred); four 9s, 8s or 7s are nothing.
KIND_RANKS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)
ACE = Rank.ACE


def is_run(cards: tuple[int, ...]) -> bool:
    """True when the cards are consecutive in natural order in one suit."""
    return len({suit_of(c) for c in cards}) == 1 and all(
        b - a == 1 for a, b in itertools.pairwise(cards)
    )


# Bit r of each suit's byte, for r = 0..5: where a run of three may start.
_RUN_STARTS = 0x3F3F3F3F
# Bits T J Q K A of one suit's byte: the ranks whose four of a kind counts (D19).
_KIND_BITS = 0xF8
# How far each of hearts, diamonds and clubs sits above spades in a hand mask.
_H, _D, _C = SUIT_SHIFT[1:]


def holds_project(hand: int) -> bool:
    """D19: whether the hand holds any project at all (a run of three, or four
    of a kind of T, J, Q, K or A); a quick test before ``candidates``."""
    if hand & hand >> 1 & hand >> 2 & _RUN_STARTS:
        return True
    return bool(hand & hand >> _H & hand >> _D & hand >> _C & _KIND_BITS)


def candidates(hand: int, sun: bool) -> list[Project]:
    """D19: every single project the hand holds, longer runs offering each part.

    Table-driven, in the order of ``scan_candidates`` (which a test compares it with).
    """
    if not holds_project(hand):
        return []
    found: list[Project] = []
    for suit in (0, 1, 2, 3):
        pattern = hand >> SUIT_SHIFT[suit] & 0xFF
        if pattern:
            found += _RUNS[suit][pattern]
    for rank, mask in zip(_FOUR_RANKS, _FOUR_MASKS, strict=True):
        if hand & mask == mask:
            found.append((_ACES[sun] if rank == ACE else "hundred", _FOUR_CARDS[rank]))
    return found


def scan_candidates(hand: int, sun: bool) -> list[Project]:
    """``candidates`` by the full scan, without the quick test (which a test
    proves exact against it)."""
    found: list[Project] = []
    for suit in range(4):
        bits = suit_pattern(hand, suit)
        base = card_at(suit, 0)
        start = 0
        while start < 8:
            if not bits >> start & 1:
                start += 1
                continue
            end = start
            while end + 1 < 8 and bits >> (end + 1) & 1:
                end += 1
            for size in (3, 4, 5):
                for first in range(start, end - size + 2):
                    cards = tuple(range(base + first, base + first + size))
                    found.append((RUN_KIND[size], cards))
            start = end + 1
    for rank in _FOUR_RANKS:
        cards = tuple(card_at(suit, rank) for suit in range(4))
        if hand >> cards[0] & hand >> cards[1] & hand >> cards[2] & hand >> cards[3] & 1:
            kind = "four_hundred" if rank == ACE and sun else "hundred"
            found.append((kind, cards))
    return found


_FOUR_RANKS = (*KIND_RANKS, ACE)
# The four cards of one rank, as a sorted tuple and as a mask, by rank.
_FOUR_CARDS = {rank: tuple(card_at(suit, rank) for suit in range(4)) for rank in _FOUR_RANKS}
_FOUR_MASKS = tuple(sum(1 << c for c in _FOUR_CARDS[rank]) for rank in _FOUR_RANKS)
# Four aces by ``sun``: a Hundred in Hokum, a Four Hundred in Sun (D19).
_ACES = ("hundred", "four_hundred")
# The runs of one suit's 8-bit pattern, as scan_candidates lists them, by
# suit and pattern (four of a kind never comes from one suit, so ``sun`` is moot).
_RUNS = tuple(
    tuple(tuple(scan_candidates(pattern << SUIT_SHIFT[suit], False)) for pattern in range(256))
    for suit in range(4)
)


def _touches(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """D19: two runs of one suit touch when they overlap or are adjacent."""
    if suit_of(a[0]) != suit_of(b[0]):
        return False
    return not (a[-1] + 1 < b[0] or b[-1] + 1 < a[0])


def compatible(chosen: list[Project], project: Project) -> bool:
    """Whether ``project`` may join ``chosen`` in one seat's declaration (D19)."""
    kind, cards = project
    used = 0
    same_kind = 0
    for other_kind, other_cards in chosen:
        if other_kind == kind:
            same_kind += 1
        for c in other_cards:
            used |= 1 << c
        if is_run(cards) and is_run(other_cards) and _touches(cards, other_cards):
            return False
    if same_kind >= 2:
        return False
    return not any(used >> c & 1 for c in cards)


def declarations(hand: int, sun: bool) -> list[list[Project]]:
    """Every valid declaration list for a hand, the empty one first (D18-D19)."""
    if not holds_project(hand):
        return [[]]
    return [list(option) for option in declaration_options(hand, sun)]


@functools.lru_cache(maxsize=64)
def declaration_options(hand: int, sun: bool) -> tuple[tuple[Project, ...], ...]:
    """``declarations`` as immutable tuples, remembered for the last hands
    asked about: listing the legal declarations and applying one of them ask
    about the same hand.

    Compatibility is decided on card masks (``compatible`` in mask form); a
    test compares the lists with ``scan_declaration_options``.
    """
    options = candidates(hand, sun)
    masks = []
    halos = []
    for _kind, cards in options:
        mask = 0
        for c in cards:
            mask |= 1 << c
        masks.append(mask)
        # A run's cards and their neighbours in its suit: a run of the same
        # suit touching it (D19) holds one of them. Four of a kind: no run.
        if is_run(cards):
            halos.append((mask | mask << 1 | mask >> 1) & SUIT_MASKS[suit_of(cards[0])])
        else:
            halos.append(0)
    kinds = [kind for kind, _ in options]
    out: list[tuple[Project, ...]] = []
    chosen: list[Project] = []
    count = len(options)

    def extend(start: int, used: int, touched: int) -> None:
        out.append(tuple(chosen))
        for i in range(start, count):
            mask = masks[i]
            if used & mask or (halos[i] and touched & mask):
                continue
            kind = kinds[i]
            if sum(1 for k, _ in chosen if k == kind) >= 2:
                continue
            chosen.append(options[i])
            extend(i + 1, used | mask, touched | halos[i])
            chosen.pop()

    extend(0, 0, 0)
    return tuple(out)


def scan_declaration_options(hand: int, sun: bool) -> tuple[tuple[Project, ...], ...]:
    """``declaration_options`` from the full scan with ``compatible``, without
    masks or memory (kept for the test that proves the fast form exact)."""
    options = scan_candidates(hand, sun)
    out: list[list[Project]] = []

    def extend(start: int, chosen: list[Project]) -> None:
        out.append(list(chosen))
        for i in range(start, len(options)):
            if compatible(chosen, options[i]):
                chosen.append(options[i])
                extend(i + 1, chosen)
                chosen.pop()

    extend(0, [])
    return tuple(tuple(option) for option in out)


def check_declaration(projects: list[Project], hand: int, sun: bool) -> None:
    """Validates one seat's declaration; raises InvalidDeclaration saying why."""
    chosen: list[Project] = []
    for kind, cards in projects:
        for c in cards:
            if not hand >> c & 1:
                raise InvalidDeclaration("You do not hold %(card)s", card=CARD_STR[c])
        if len(set(cards)) != len(cards):
            raise InvalidDeclaration("A card may serve one project only")
        _check_shape(kind, cards, sun)
        for _other_kind, other_cards in chosen:
            if set(cards) & set(other_cards):
                raise InvalidDeclaration("A card may serve one project only")
            if is_run(cards) and is_run(other_cards) and _touches(cards, other_cards):
                raise InvalidDeclaration(
                    "Runs of one suit may not touch: declare a longer run as one project"
                )
        if sum(1 for k, _ in chosen if k == kind) >= 2:
            raise InvalidDeclaration("A project type may be declared at most twice")
        chosen.append((kind, cards))


def _check_shape(kind: str, cards: tuple[int, ...], sun: bool) -> None:
    """D19: the cards must form the declared kind."""
    if len(cards) == 4 and len({rank_of(c) for c in cards}) == 1:
        rank = rank_of(cards[0])
        if rank == ACE:
            wanted = "four_hundred" if sun else "hundred"
            if kind != wanted:
                if sun:
                    raise InvalidDeclaration("Four aces are a Four Hundred in Sun")
                raise InvalidDeclaration("Four aces are a Hundred in Hokum")
            return
        if rank in KIND_RANKS and kind == "hundred":
            return
        if rank not in KIND_RANKS:
            raise InvalidDeclaration("Four 9s, 8s or 7s are not a project")
    if kind == "four_hundred":
        raise InvalidDeclaration("A Four Hundred is four aces in Sun")
    size = {"sira": 3, "fifty": 4, "hundred": 5}[kind]
    if len(cards) != size or not is_run(cards):
        raise InvalidDeclaration(
            "A %(kind)s is %(size)s cards in a row of one suit",
            kind=kind.replace("_", " ").title(),
            size=size,
        )


def strength_key(project: Project) -> tuple[int, int, int]:
    """D20: a sortable key; a higher key is the better project."""
    kind, cards = project
    run = 1 if is_run(cards) else 0
    return (KIND_RANK[kind], run if kind == "hundred" else 0, max(rank_of(c) for c in cards))


def counting_team(
    declared: tuple[tuple[Project, ...] | None, ...], order: tuple[int, ...]
) -> int | None:
    """D20: the team index (0 = A, 1 = B) whose projects count, or None.

    ``declared`` is indexed by seat - 1; ``order`` lists the seats in turn
    order, which breaks an exact tie in favour of the earlier seat.
    """
    best: tuple[tuple[int, int, int], int] | None = None
    best_team = None
    for position, seat in enumerate(order):
        for project in declared[seat - 1] or ():
            key = (strength_key(project), -position)
            if best is None or key > best:
                best = key
                best_team = (seat - 1) % 2
    return best_team


def describe(project: Project) -> ProjectItem:
    """The notation form of a project."""
    kind, cards = project
    return {"project": kind, "cards": [CARD_STR[c] for c in cards]}
