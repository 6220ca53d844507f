"""The declaration phase, D18-D20, and Baloot eligibility (D21a).

Each seat, in turn order, declares once: the projects it chooses, possibly
none. Types are public at once; cards only after the first trick (D18).
"""

from __future__ import annotations

from .cards import CARD_OF, Rank, card_at
from .errors import InvalidDeclaration
from .projects import (
    Project,
    check_declaration,
    counting_team,
    declaration_options,
    declarations,
    describe,
    holds_project,
)
from .shapes import Action, ProjectItem
from .state import Draft, Phase, State


def legal(st: State) -> list[Action]:
    """Every valid declaration list of the seat to act, ``[]`` included."""
    seat = st.turn
    assert seat is not None
    assert st.contract is not None
    hand = st.hands[seat - 1]
    return [
        {"seat": seat, "declare": [describe(p) for p in option]}
        for option in declarations(hand, st.contract.sun)
    ]


def moves(st: State) -> list[int]:
    """The compact form of ``legal``: the index of each declaration list in
    ``projects.declarations`` (0, declaring nothing, comes first)."""
    assert st.turn is not None
    assert st.contract is not None
    hand = st.hands[st.turn - 1]
    if not holds_project(hand):
        return [0]
    return list(range(len(declaration_options(hand, st.contract.sun))))


def _option(st: State, move: int) -> list[Project]:
    """The declaration list a compact declaration stands for."""
    if move == 0:
        return []
    assert st.turn is not None
    assert st.contract is not None
    return list(declaration_options(st.hands[st.turn - 1], st.contract.sun)[move])


def action(st: State, move: int) -> Action:
    """The notation form of a compact declaration by the seat to act."""
    assert st.turn is not None
    return {"seat": st.turn, "declare": [describe(p) for p in _option(st, move)]}


def forced(st: State) -> Action:
    """D17: a declaration that times out declares nothing."""
    assert st.turn is not None
    return {"seat": st.turn, "declare": [], "auto": True}


def parse(items: list[ProjectItem]) -> list[Project]:
    """Notation projects as (kind, sorted cards) pairs."""
    return [(item["project"], tuple(sorted(CARD_OF[c] for c in item["cards"]))) for item in items]


def step(st: Draft, seat: int, verb: str, action: Action) -> None:
    """Records one seat's declaration in ``st`` (a Draft); raises InvalidDeclaration."""
    assert st.contract is not None
    projects = parse(action["declare"])
    if any(len(cards) == 0 for _, cards in projects):
        raise InvalidDeclaration("A project needs its cards")
    check_declaration(projects, st.hands[seat - 1], st.contract.sun)
    _declare(st, seat, projects)


def do(st: Draft, seat: int, move: int) -> None:
    """Applies a compact declaration that ``moves`` offered to ``st`` (a
    Draft), checking nothing."""
    _declare(st, seat, _option(st, move))


def _declare(st: Draft, seat: int, projects: list[Project]) -> None:
    declared = list(st.declared)
    declared[seat - 1] = tuple(projects)
    st.declared = tuple(declared)
    if seat != st.dealer:
        st.turn = seat % 4 + 1
        return
    st.counting = -1 if (team := counting_team(st.declared, st.order())) is None else team
    st.baloot_ok = _baloot_seats(st)
    st.phase = Phase.PLAYING
    st.leader = st.first
    st.turn = st.first


def _baloot_seats(st: State) -> int:
    """D21a: seats holding trump K and Q whose declared projects use neither."""
    contract = st.contract
    assert contract is not None
    if contract.kind != "hokum":
        return 0
    king = card_at(contract.trump, Rank.KING)
    queen = card_at(contract.trump, Rank.QUEEN)
    seats = 0
    for seat in range(1, 5):
        dealt = st.dealt[seat - 1]
        if not (dealt >> king & 1 and dealt >> queen & 1):
            continue
        used = {c for _, cards in st.declared[seat - 1] or () for c in cards}
        if king in used or queen in used:
            continue
        seats |= 1 << seat
    return seats
