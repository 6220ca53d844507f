"""Projects and Baloot: rules-decisions.md D18 (declaration phase), D19
(projects and their validation), D20 (comparison), D21a (Baloot)."""

from __future__ import annotations

from typing import Any

import pytest

import games.rules as rules

from .deals import (
    HOKUM_80_82,
    HOKUM_84_78,
    hokum_blocks,
    hokum_by_p1,
    sun_blocks,
    sun_by_p1,
    sweep_deal,
)
from .scenarios import (
    Deal,
    declarations,
    declare,
    fill_deal,
    finish,
    frozen,
    last,
    legal,
    no_declarations,
    play,
    plays,
    run,
    sawa,
    start,
    sweep_tricks,
)

# --- D18 ----------------------------------------------------------------------


def test_d18_each_seat_declares_once_in_turn_order_after_the_multiplier() -> None:
    """D18: after the multiplier is settled, each seat in turn order makes one
    declaration, possibly none; then play starts with P1."""
    d = hokum_blocks(dealer=3)  # P1..P4 = seats 4, 1, 2, 3
    state = run(start(d), hokum_by_p1(d)[:5])
    assert state.phase == rules.Phase.DOUBLING
    state = run(state, hokum_by_p1(d)[5:])
    assert state.phase == rules.Phase.DECLARING
    for seat in (4, 1, 2, 3):
        assert state.turn == seat
        with pytest.raises(rules.NotYourTurn):
            rules.apply(state, declare(seat % 4 + 1 if seat != 3 else 1))
        state = rules.apply(state, declare(seat))
    assert state.phase == rules.Phase.PLAYING
    assert state.turn == 4


def test_d18_no_card_before_the_declarations() -> None:
    """D18 (seeds: declarations before the first card is played)."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, play(1, "AS"))


def test_d18_no_late_declaration() -> None:
    """D18 (seeds: no late declarations are allowed): once play has started,
    P3's four kings can no longer be declared."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4) + [play(1, "AS"), play(2, "TS")])
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, declare(3, ("hundred", "KS KD KC KH")))


def test_d18_types_public_at_once_cards_after_the_first_trick() -> None:
    """D18: the project types declared are public at once; their cards are
    shown to everyone when the first trick ends."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + declarations(4, {3: [("hundred", "KS KD KC KH")]}))
    for viewer in (2, 4, None):
        shown = rules.view_for(state, viewer)["declarations"]["3"]
        assert [p["project"] for p in shown] == ["hundred"]
        assert all(not p["cards"] for p in shown)
    state = run(state, [play(1, "AS"), play(2, "TS"), play(3, "KS")])
    assert all(not p["cards"] for p in rules.view_for(state, 2)["declarations"]["3"])
    state = rules.apply(state, play(4, "QS"))
    for viewer in (2, None):
        shown = rules.view_for(state, viewer)["declarations"]["3"]
        assert sorted(shown[0]["cards"]) == ["KC", "KD", "KH", "KS"]


# --- D19 ----------------------------------------------------------------------


def declaring(hand: str, faceup: str, hokum: bool = False) -> Any:
    """P1 (seat 1) holds ``hand``, buys the contract and is first to declare."""
    d = fill_deal(4, {1: hand}, faceup, 1)
    actions = hokum_by_p1(d) if hokum else sun_by_p1(d)
    state = run(start(d), actions)
    assert state.turn == 1
    assert state.phase == rules.Phase.DECLARING
    return state


RUN8 = "7S 8S 9S TS JS QS KS AS"

VALID_RUN_DECLARATIONS = [
    [("sira", "7S 8S 9S")],
    [("sira", "QS KS AS")],
    [("fifty", "7S 8S 9S TS")],
    [("fifty", "JS QS KS AS")],
    [("hundred", "7S 8S 9S TS JS")],
    [("hundred", "TS JS QS KS AS")],
    [("sira", "7S 8S 9S"), ("sira", "QS KS AS")],
    [("fifty", "7S 8S 9S TS"), ("sira", "QS KS AS")],
    [("sira", "7S 8S 9S"), ("fifty", "JS QS KS AS")],
]


@pytest.mark.parametrize("projects", VALID_RUN_DECLARATIONS)
def test_d19_valid_run_declarations(projects: list[tuple[str, str]]) -> None:
    """D19: runs of 3, 4, 5 in natural order (Sira 20, Fifty 50, Hundred 100);
    a shorter part of a run may be declared; runs that do not touch may both
    be declared (9 and Q, T and Q, 9 and J are not adjacent)."""
    state = declaring(RUN8, "AS")
    assert frozen([declare(1, *projects)]) <= legal(state)
    state = rules.apply(state, declare(1, *projects))
    assert state.turn == 2


INVALID_RUN_DECLARATIONS = [
    [("hundred", "7S 8S 9S TS JS QS")],  # six cards
    [("sira", "7S 8S")],  # two cards
    [("sira", "7S 8S TS")],  # not in a row
    [("fifty", "7S 8S 9S")],  # three cards called a Fifty
    [("sira", "7S 8S 9S TS")],  # four cards called a Sira
    [("sira", "7S 8S 9S"), ("sira", "TS JS QS")],  # touching runs
    [("fifty", "7S 8S 9S TS"), ("sira", "JS QS KS")],  # touching runs
    [("hundred", "7S 8S 9S TS JS"), ("sira", "QS KS AS")],  # touching runs
    [("sira", "7S 8S 9S"), ("sira", "9S TS JS")],  # a card in two projects
    [("sira", "7S 8S 9S"), ("sira", "7S 8S 9S")],  # the same project twice
]


@pytest.mark.parametrize("projects", INVALID_RUN_DECLARATIONS)
def test_d19_invalid_run_declarations(projects: list[tuple[str, str]]) -> None:
    """D19: a declared run lists exactly 3, 4 or 5 cards in a row; one
    seat's runs of one suit may not touch; a card serves one project only."""
    state = declaring(RUN8, "AS")
    assert frozen([declare(1, *projects)]).isdisjoint(legal(state))
    with pytest.raises(rules.InvalidDeclaration):
        rules.apply(state, declare(1, *projects))


def test_d19_run_in_a_row_of_one_suit_only() -> None:
    """D19: runs use one suit; 7S 8H 9S is nothing. Runs of different suits
    may sit next to each other (7S 8S 9S and TH JH QH)."""
    state = declaring("7S 8S 9S 8H TH JH QH AD", "AD")
    with pytest.raises(rules.InvalidDeclaration):
        rules.apply(state, declare(1, ("sira", "7S 8H 9S")))
    ok = declare(1, ("sira", "7S 8S 9S"), ("sira", "TH JH QH"))
    assert frozen([ok]) <= legal(state)


def test_d19_exact_declarations_of_a_four_card_run() -> None:
    """D19: 7S 8S 9S TS (and nothing else) offers exactly: none, either Sira,
    or the Fifty."""
    state = declaring("7S 8S 9S TS JH KD AC 7H", "AC")
    assert legal(state) == frozen(
        [
            declare(1),
            declare(1, ("sira", "7S 8S 9S")),
            declare(1, ("sira", "8S 9S TS")),
            declare(1, ("fifty", "7S 8S 9S TS")),
        ]
    )


def test_d19_four_of_a_kind_hundreds_twice() -> None:
    """D19: four K and four Q are Hundreds; the same type at most twice per
    seat, so both may be declared."""
    state = declaring("KS KH KD KC QS QH QD QC", "KS")
    both = declare(1, ("hundred", "KS KH KD KC"), ("hundred", "QS QH QD QC"))
    assert frozen([both]) <= legal(state)
    with pytest.raises(rules.InvalidDeclaration):
        rules.apply(state, declare(1, ("four_hundred", "KS KH KD KC")))
    state = rules.apply(state, both)
    assert state.turn == 2


@pytest.mark.parametrize("rank", ["T", "J", "Q", "K"])
def test_d19_four_of_a_kind_t_j_q_k_is_a_hundred(rank: str) -> None:
    """D19: four K, four Q, four J or four T are a Hundred."""
    four = " ".join(rank + s for s in "SHDC")
    state = declaring(four + (" 7S 8H 9D AC" if rank != "T" else " 7S 8H 9D KC"), rank + "S")
    assert frozen([declare(1, ("hundred", four))]) <= legal(state)


@pytest.mark.parametrize("rank", ["7", "8", "9"])
def test_d19_four_nines_eights_sevens_are_nothing(rank: str) -> None:
    """D19: four 9s, 8s or 7s are nothing."""
    four = " ".join(rank + s for s in "SHDC")
    state = declaring(four + " AS KH QD JC", "AS")
    assert legal(state) == frozen([declare(1)])
    for project in ("hundred", "four_hundred"):
        with pytest.raises(rules.InvalidDeclaration):
            rules.apply(state, declare(1, (project, four)))


def test_d19_four_aces_in_sun_are_four_hundred() -> None:
    """D19: Four Hundred: four A in Sun, 200 card points (not a Hundred)."""
    state = declaring("AS AH AD AC 7S 8H 9D JC", "AS")
    assert legal(state) == frozen([declare(1), declare(1, ("four_hundred", "AS AH AD AC"))])
    with pytest.raises(rules.InvalidDeclaration):
        rules.apply(state, declare(1, ("hundred", "AS AH AD AC")))


def test_d19_four_aces_in_hokum_are_a_hundred() -> None:
    """D19: four A in Hokum are a Hundred (not a Four Hundred)."""
    state = declaring("AS AH AD AC 7S 8H 9D JC", "AS", hokum=True)
    assert legal(state) == frozen([declare(1), declare(1, ("hundred", "AS AH AD AC"))])
    with pytest.raises(rules.InvalidDeclaration):
        rules.apply(state, declare(1, ("four_hundred", "AS AH AD AC")))


def test_d19_run_and_four_of_a_kind_cannot_share_a_card() -> None:
    """D19: a card may serve one project only: 9S TS JS and the four J share JS."""
    state = declaring("9S TS JS JH JD JC 7H 8D", "9S")
    assert frozen([declare(1, ("sira", "9S TS JS"))]) <= legal(state)
    assert frozen([declare(1, ("hundred", "JS JH JD JC"))]) <= legal(state)
    with pytest.raises(rules.InvalidDeclaration):
        rules.apply(state, declare(1, ("sira", "9S TS JS"), ("hundred", "JS JH JD JC")))


def test_d19_cards_must_be_in_the_hand() -> None:
    """D19: a project must be held by the declaring seat."""
    state = declaring("7S 8S 9S TS JH KD AC 7H", "AC")
    with pytest.raises(rules.InvalidDeclaration):
        rules.apply(state, declare(1, ("sira", "QH KH AH")))


def test_d19_available_projects_lists_every_single_project() -> None:
    """D19 (API: the projects a hand can declare, with their card points):
    7S 8S 9S TS holds two Siras and a Fifty."""
    state = declaring("7S 8S 9S TS JH KD AC 7H", "AC")
    found = {
        (p["project"], frozenset(p["cards"]), p["value"])
        for p in rules.available_projects(state, 1)
    }
    assert found == {
        ("sira", frozenset({"7S", "8S", "9S"}), 20),
        ("sira", frozenset({"8S", "9S", "TS"}), 20),
        ("fifty", frozenset({"7S", "8S", "9S", "TS"}), 50),
    }


# --- D20 ----------------------------------------------------------------------


def compared(
    fixed: dict[int, str],
    declared: dict[int, list[tuple[str, str]]],
    dealer: int = 4,
    hokum: bool = False,
) -> dict[str, list[tuple[int, str, int]]]:
    """Deal with ``fixed`` cards by position, declare by position, play the
    deal out, and return the projects that count, per team."""
    faceup = fixed[1].split()[0]
    d = fill_deal(dealer, fixed, faceup, 1)
    by_seat = {d.seat(p): projects for p, projects in declared.items()}
    actions = (hokum_by_p1(d) if hokum else sun_by_p1(d)) + declarations(dealer, by_seat)
    state = finish(run(start(d), actions))
    projects = last(state)["projects"]
    return {
        team: sorted((p["seat"], p["project"], p["value"]) for p in projects[team])
        for team in ("A", "B")
    }


def test_d20_fifty_beats_sira() -> None:
    """D20: Four Hundred > Hundred > Fifty > Sira; only the better team scores."""
    got = compared(
        {1: "7S 8S 9S", 2: "7H 8H 9H TH"},
        {1: [("sira", "7S 8S 9S")], 2: [("fifty", "7H 8H 9H TH")]},
    )
    assert got == {"A": [], "B": [(2, "fifty", 50)]}


def test_d20_type_before_top_card() -> None:
    """D20: a Hundred topped by J beats a Fifty topped by A."""
    got = compared(
        {1: "JS QS KS AS", 2: "7H 8H 9H TH JH"},
        {1: [("fifty", "JS QS KS AS")], 2: [("hundred", "7H 8H 9H TH JH")]},
    )
    assert got == {"A": [], "B": [(2, "hundred", 100)]}


def test_d20_four_hundred_beats_a_hundred() -> None:
    """D20: Four Hundred (four A in Sun, 200) beats a run Hundred."""
    got = compared(
        {1: "AS AH AD AC", 2: "7D 8D 9D TD JD"},
        {1: [("four_hundred", "AS AH AD AC")], 2: [("hundred", "7D 8D 9D TD JD")]},
    )
    assert got == {"A": [(1, "four_hundred", 200)], "B": []}


def test_d20_run_beats_four_of_a_kind_among_hundreds() -> None:
    """D20: among Hundreds a run beats four of a kind (7D-JD over four K)."""
    got = compared(
        {1: "KS KH KD KC", 2: "7D 8D 9D TD JD"},
        {1: [("hundred", "KS KH KD KC")], 2: [("hundred", "7D 8D 9D TD JD")]},
    )
    assert got == {"A": [], "B": [(2, "hundred", 100)]}


def test_d20_hokum_four_aces_lose_to_a_run_hundred() -> None:
    """D19 + D20: four A in Hokum are a Hundred of four of a kind, below a run."""
    got = compared(
        {1: "AS AH AD AC", 2: "7D 8D 9D TD JD"},
        {1: [("hundred", "AS AH AD AC")], 2: [("hundred", "7D 8D 9D TD JD")]},
        hokum=True,
    )
    assert got == {"A": [], "B": [(2, "hundred", 100)]}


def test_d20_higher_four_of_a_kind() -> None:
    """D20: then the higher top card: four K beat four Q."""
    got = compared(
        {1: "QS QH QD QC", 2: "KS KH KD KC"},
        {1: [("hundred", "QS QH QD QC")], 2: [("hundred", "KS KH KD KC")]},
    )
    assert got == {"A": [], "B": [(2, "hundred", 100)]}


def test_d20_top_card_order_puts_t_between_j_and_9() -> None:
    """D20: top cards A K Q J T 9 8 7: a Sira to the J (9 T J) beats a Sira
    to the T (8 9 T)."""
    got = compared(
        {1: "8S 9S TS", 2: "9H TH JH"},
        {1: [("sira", "8S 9S TS")], 2: [("sira", "9H TH JH")]},
    )
    assert got == {"A": [], "B": [(2, "sira", 20)]}


def test_d20_exact_tie_goes_to_the_seat_earlier_in_turn_order() -> None:
    """D20: an exact tie goes to the seat earlier in turn order. Dealer 2:
    turn order 3, 4, 1, 2, so seat 4 (P2) beats seat 1 (P3)."""
    got = compared(
        {1: "AS", 2: "7H 8H 9H", 3: "7D 8D 9D"},
        {2: [("sira", "7H 8H 9H")], 3: [("sira", "7D 8D 9D")]},
        dealer=2,
    )
    assert got == {"A": [], "B": [(4, "sira", 20)]}


def test_d20_exact_tie_first_seat_wins_with_dealer_four() -> None:
    """D20: dealer 4: seat 1 (P1) is before seat 4 (P4)."""
    got = compared(
        {1: "QS KS AS", 4: "QH KH AH"},
        {1: [("sira", "QS KS AS")], 4: [("sira", "QH KH AH")]},
    )
    assert got == {"A": [(1, "sira", 20)], "B": []}


def test_d20_the_better_team_scores_all_its_projects() -> None:
    """D20: the team with the better best project scores all its declared
    projects, both partners'; the other team's Fifty is lost."""
    got = compared(
        {1: "7S 8S 9S TS JS", 2: "7D 8D 9D TD", 3: "7H 8H 9H"},
        {
            1: [("hundred", "7S 8S 9S TS JS")],
            2: [("fifty", "7D 8D 9D TD")],
            3: [("sira", "7H 8H 9H")],
        },
    )
    assert got == {"A": [(1, "hundred", 100), (3, "sira", 20)], "B": []}


def test_d20_best_project_compared_not_the_sum() -> None:
    """D20: each team's best project is compared: two Fifties (100 in all)
    lose to one Hundred."""
    got = compared(
        {1: "7S 8S 9S TS", 2: "7D 8D 9D TD JD", 3: "7H 8H 9H TH"},
        {
            1: [("fifty", "7S 8S 9S TS")],
            2: [("hundred", "7D 8D 9D TD JD")],
            3: [("fifty", "7H 8H 9H TH")],
        },
    )
    assert got == {"A": [], "B": [(2, "hundred", 100)]}


def test_d20_a_lone_declaration_counts() -> None:
    """D20: a team facing no project scores its own."""
    got = compared({1: "AS", 2: "7H 8H 9H"}, {2: [("sira", "7H 8H 9H")]})
    assert got == {"A": [], "B": [(2, "sira", 20)]}


# --- D21a ---------------------------------------------------------------------


def hokum_trick7() -> tuple[Deal, Any]:
    """HOKUM_84_78 after six tricks and P4's TS: P1 holds QS KS."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + plays(d, HOKUM_84_78[:6]))
    return d, rules.apply(state, play(4, "TS"))


def test_d21a_baloot_offered_with_the_k_or_q_of_trump() -> None:
    """D21a: the seat that held both K and Q of trump announces when playing
    either of them."""
    _, state = hokum_trick7()
    assert legal(state) == frozen(
        [play(1, "QS"), play(1, "QS", True), play(1, "KS"), play(1, "KS", True)]
    )


def test_d21a_baloot_announced_once() -> None:
    """D21a: announced once: after the QS announcement, the KS has no second one."""
    _d, state = hokum_trick7()
    state = run(state, [play(1, "QS", True), play(2, "8S"), play(3, "7S"), play(4, "AS")])
    assert legal(state) == frozen([play(1, "KS")])
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, play(1, "KS", True))


def test_d21a_baloot_with_the_king_after_a_silent_queen() -> None:
    """D21a: either card will do: QS played silently, KS announced: 20 card
    points, 2 game points: 84/78 -> 8 + 2 = 10, 8."""
    _, state = hokum_trick7()
    state = run(state, [play(1, "QS"), play(2, "8S"), play(3, "7S"), play(4, "AS")])
    state = run(state, [play(1, "KS", True), play(2, "JS"), play(3, "9S")])
    assert last(state)["baloot"] == {"A": 20, "B": 0}
    assert last(state)["points"] == {"A": 10, "B": 8}


def test_d21a_only_the_holder_of_both_may_announce() -> None:
    """D21a: a seat holding only one of K and Q (or neither) has no Baloot."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    checked = 0
    for action in plays(d, HOKUM_84_78):
        if state.turn != 1:
            assert all("baloot" not in a for a in rules.legal_actions(state))
            checked += 1
        state = rules.apply(state, action)
    assert checked == 24
    with pytest.raises(rules.IllegalAction):
        rules.apply(run(start(d), hokum_by_p1(d) + no_declarations(4)), play(1, "AH", True))


def test_d21a_no_baloot_in_sun() -> None:
    """D21a (seeds: the Baloot project is only valid in Hokum Mode): P1
    holds KS and QS in Sun: no announcement offered."""
    d = sweep_deal()
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    assert all("baloot" not in a for a in rules.legal_actions(state))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, play(1, "KS", True))


def hokum_sweep_declaring(*projects: tuple[str, str], p2: tuple[str, str] | None = None) -> Any:
    """The one-suit deal in Hokum spades (P1 holds every trump), declared."""
    d = sweep_deal()
    decl = {1: list(projects)}
    if p2 is not None:
        decl[2] = [p2]
    return d, run(start(d), hokum_by_p1(d) + declarations(4, decl))


def test_d21a_no_baloot_when_k_or_q_is_in_a_declared_project() -> None:
    """D21a: not available if the K or Q is in a project that seat declared."""
    _, state = hokum_sweep_declaring(("sira", "QS KS AS"))
    assert all("baloot" not in a for a in rules.legal_actions(state))


def test_d21a_no_baloot_even_when_that_project_does_not_count() -> None:
    """D21a: whether or not that project counts: A's Sira J Q K loses to B's
    Hundred, and still no Baloot."""
    d, state = hokum_sweep_declaring(("sira", "JS QS KS"), p2=("hundred", "TH JH QH KH AH"))
    assert all("baloot" not in a for a in rules.legal_actions(state))
    state = run(state, plays(d, sweep_tricks(d)))
    assert last(state)["projects"] == {
        "A": [],
        "B": [{"seat": 2, "project": "hundred", "value": 100}],
    }


def test_d21a_baloot_kept_when_the_project_leaves_k_and_q_out() -> None:
    """D21a: a declared Sira 7S 8S 9S does not touch the K and Q."""
    _, state = hokum_sweep_declaring(("sira", "7S 8S 9S"))
    assert frozen([play(1, "KS", True), play(1, "QS", True)]) <= legal(state)


def test_d21a_baloot_goes_to_the_defenders_on_defeat() -> None:
    """D21a + D23: Baloot is transferred on defeat and does not decide the
    winner (D21): HOKUM_80_82 -> 8 / 8, B higher exact total, bidders lose
    even with Baloot; B takes 8 + 8 + 2 = 18."""
    d = hokum_blocks()
    state = run(
        start(d), hokum_by_p1(d) + no_declarations(4) + plays(d, HOKUM_80_82, baloot={"KS"})
    )
    result = last(state)
    assert result["card_points"] == {"A": 80, "B": 82}
    assert result["baloot"] == {"A": 20, "B": 0}
    assert result["points"] == {"A": 0, "B": 18}


def test_d21a_no_play_no_baloot_under_sawa() -> None:
    """D21a: cards taken unplayed by a Sawa earn none: P1 claims at once,
    holding KS and QS: Hokum sweep 152 + 10 + 90 = 252 -> 25, no Baloot."""
    _, state = hokum_sweep_declaring()
    state = rules.apply(state, sawa(1))
    result = last(state)
    assert result["outcome"] == "sawa"
    assert result["baloot"] == {"A": 0, "B": 0}
    assert result["points"] == {"A": 25, "B": 0}


def test_d21a_baloot_announced_before_the_sawa_counts() -> None:
    """D21a: announced when KS was played, then Sawa: 25 + 2 = 27."""
    _d, state = hokum_sweep_declaring()
    state = run(state, [play(1, "KS", True), play(2, "7H"), play(3, "7D"), play(4, "7C")])
    state = rules.apply(state, sawa(1))
    assert last(state)["baloot"] == {"A": 20, "B": 0}
    assert last(state)["points"] == {"A": 27, "B": 0}
