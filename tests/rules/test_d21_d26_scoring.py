"""Scoring a deal: rules-decisions.md D21 (round total and winner), D22
(conversion), D23 (bidders' defeat), D24 (doubled rounds), D25 (sweep),
D26 (Sawa)."""

from __future__ import annotations

from typing import Any

import pytest

import games.rules as rules

from .deals import (
    HOKUM_70_92,
    HOKUM_80_82,
    HOKUM_81_81,
    HOKUM_84_78,
    HOKUM_85_77,
    HOKUM_86_76,
    HOKUM_92_70,
    HOKUM_BLOCKS,
    SUN_55_75,
    SUN_65_65,
    SUN_66_64,
    SUN_SAWA_MID,
    SWEEP,
    hokum_blocks,
    hokum_by_p1,
    sun_blocks,
    sun_by_p1,
    sweep_deal,
)
from .scenarios import (
    Action,
    Deal,
    bid,
    call,
    deal,
    declarations,
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


def sun_result(tricks: list[str], **declared: list[tuple[str, str]]) -> dict[str, Any]:
    """SUN_BLOCKS, Sun by P1 (seat 1), played as ``tricks``."""
    d = sun_blocks()
    by_seat = {int(k[1:]): v for k, v in declared.items()}
    return last(run(start(d), sun_by_p1(d) + declarations(4, by_seat) + plays(d, tricks)))


def hokum_result(tricks: list[str], *calls: Action, baloot: set[str] | None = None) -> Any:
    """HOKUM_BLOCKS, Hokum spades by P1 (seat 1), played as ``tricks``."""
    d = hokum_blocks()
    actions = hokum_by_p1(d, *calls) + no_declarations(4) + plays(d, tricks, baloot or set())
    return last(run(start(d), actions))


# HOKUM_BLOCKS again, but P2 (seat 2, team B) buys the Hokum with the face-up
# JS: the hands are the same, so P1 (a defender) holds KS and QS.
def b_hokum(tricks: list[str], *calls: Action, baloot: set[str] | None = None) -> Any:
    """Hokum spades by seat 2; defenders (seats 3 then 1) call first."""
    d = deal(4, HOKUM_BLOCKS, "JS", 2)
    actions = [bid(1, "pass"), bid(2, "hokum"), bid(3, "pass"), bid(4, "pass"), bid(1, "pass")]
    actions.append(bid(2, "confirm"))
    actions += list(calls) if calls else [call(3, "pass"), call(1, "pass")]
    actions += no_declarations(4) + plays(d, tricks, baloot or set())
    return last(run(start(d), actions))


# --- D21 ----------------------------------------------------------------------


def test_d21_round_total_includes_the_projects_that_count() -> None:
    """D21: round total = card points + last trick + sweep + projects that
    count. SUN_55_75 with P3's four kings: A 55 + 100 = 155 -> 31 (a units
    digit of 5 stays), B 75 -> 15; the project makes the bidders win."""
    result = sun_result(SUN_55_75, p3=[("hundred", "KS KD KC KH")])
    assert result["card_points"] == {"A": 55, "B": 75}
    assert result["projects"] == {
        "A": [{"seat": 3, "project": "hundred", "value": 100}],
        "B": [],
    }
    assert result["points"] == {"A": 31, "B": 15}


def test_d21_equal_game_points_higher_exact_total_wins() -> None:
    """D21: on equal game points the higher exact total wins: HOKUM_84_78 is
    8 / 8 and the bidders' 84 > 78: they win and keep their 8."""
    assert hokum_result(HOKUM_84_78)["points"] == {"A": 8, "B": 8}
    assert hokum_result(HOKUM_80_82)["points"] == {"A": 0, "B": 16}


def test_d21_winner_decided_without_baloot() -> None:
    """D21: decided without Baloot: 80 (+20 Baloot) against 82 still loses."""
    result = hokum_result(HOKUM_80_82, baloot={"QS"})
    assert result["baloot"] == {"A": 20, "B": 0}
    assert result["points"] == {"A": 0, "B": 18}


def test_d21_exact_tie_undoubled_keeps_each_teams_points() -> None:
    """D21: an exact tie in an undoubled round leaves each team its own
    points: Sun 65 / 65 -> 13 / 13; Hokum 81 / 81 -> 8 / 8 (+2 Baloot)."""
    assert sun_result(SUN_65_65)["points"] == {"A": 13, "B": 13}
    assert hokum_result(HOKUM_81_81)["points"] == {"A": 8, "B": 8}
    assert hokum_result(HOKUM_81_81, baloot={"KS"})["points"] == {"A": 10, "B": 8}


# --- D22 ----------------------------------------------------------------------


@pytest.mark.parametrize(("total", "points"), [(65, 13), (66, 14), (64, 12)])
def test_d22_sun_rounding_leaves_a_five(total: int, points: int) -> None:
    """D22: Sun/Ashkal: round to the nearest ten but leave a units digit of 5
    as it is, then divide by 5 (65 -> 13, 66 -> 14, 64 -> 12)."""
    assert rules.convert(total, sun=True) == points


@pytest.mark.parametrize(("total", "points"), [(84, 8), (85, 9), (86, 9)])
def test_d22_hokum_rounding_five_rounds_up(total: int, points: int) -> None:
    """D22: Hokum: round to the nearest ten, a units digit of 5 rounding up,
    then divide by 10 (84 -> 8, 85 -> 9, 86 -> 9)."""
    assert rules.convert(total, sun=False) == points


def test_d22_hokum_85_77_converts_to_17() -> None:
    """D22: a Hokum deal can convert to 17 between the teams (85/77 -> 9/8);
    nothing adjusts it."""
    assert (rules.convert(85, sun=False), rules.convert(77, sun=False)) == (9, 8)
    result = hokum_result(HOKUM_85_77)
    assert result["card_points"] == {"A": 85, "B": 77}
    assert result["points"] == {"A": 9, "B": 8}


def test_d22_worked_examples_in_played_deals() -> None:
    """D22: the worked examples as played deals: Sun 65/65 -> 13/13, 66/64 ->
    14/12; Hokum 84/78 -> 8/8, 86/76 -> 9/8."""
    assert sun_result(SUN_65_65)["points"] == {"A": 13, "B": 13}
    assert sun_result(SUN_66_64)["points"] == {"A": 14, "B": 12}
    assert hokum_result(HOKUM_84_78)["points"] == {"A": 8, "B": 8}
    result = hokum_result(HOKUM_86_76)
    assert result["card_points"] == {"A": 86, "B": 76}
    assert result["points"] == {"A": 9, "B": 8}


def test_d22_multiplier_then_baloot_after_multiplying() -> None:
    """D22: then multiply by the multiplier; Baloot adds 2 after multiplying:
    HOKUM_85_77 doubled: (9 + 8) x 2 = 34, + 2 = 36."""
    result = hokum_result(
        HOKUM_85_77, call(2, "double", False), call(3, "pass"), call(1, "pass"), baloot={"QS"}
    )
    assert result["points"] == {"A": 36, "B": 0}


# --- D23 ----------------------------------------------------------------------


def test_d23_bidders_defeat_gives_everything_to_the_defenders() -> None:
    """D23 (seeds: all points of the bidding team go to the opposing team,
    the bidding team scores 0): SUN_55_75: 11 + 15 = 26 to B."""
    result = sun_result(SUN_55_75)
    assert result["card_points"] == {"A": 55, "B": 75}
    assert result["points"] == {"A": 0, "B": 26}


def test_d23_defeat_transfers_baloot_too() -> None:
    """D23: everything they earned, Baloot included: HOKUM_70_92 -> 7 / 9,
    B takes 7 + 9 + 2 = 18."""
    result = hokum_result(HOKUM_70_92, baloot={"QS"})
    assert result["baloot"] == {"A": 20, "B": 0}
    assert result["points"] == {"A": 0, "B": 18}


def test_d23_defenders_keep_their_own_baloot_when_bidders_win() -> None:
    """D21/D23: undoubled, the winning bidders (B: 92 -> 9) keep their 9 and
    the defenders their 7 + 2 for Baloot."""
    result = b_hokum(HOKUM_70_92, baloot={"QS"})
    assert result["contract"]["bidder"] == 2
    assert result["card_points"] == {"A": 70, "B": 92}
    assert result["points"] == {"A": 9, "B": 9}


# --- D24 ----------------------------------------------------------------------


def test_d24_doubled_round_winner_takes_all() -> None:
    """D24: the winning team takes both teams' converted points times the
    multiplier: HOKUM_92_70 x2: (9 + 7) x 2 = 32."""
    result = hokum_result(HOKUM_92_70, call(2, "double", False), call(3, "pass"), call(1, "pass"))
    assert result["points"] == {"A": 32, "B": 0}


def test_d24_winner_takes_the_losers_baloot() -> None:
    """D24: plus 2 for every Baloot announced by either team: B buys, A
    (defenders, holding KS QS) doubles and loses: B takes (7 + 9) x 2 + 2."""
    result = b_hokum(
        HOKUM_70_92, call(3, "double", False), call(4, "pass"), call(2, "pass"), baloot={"QS"}
    )
    assert result["baloot"] == {"A": 20, "B": 0}
    assert result["points"] == {"A": 0, "B": 34}


def test_d24_doubled_exact_tie_first_doubler_loses() -> None:
    """D24: on an exact tie the team that called the first Double loses:
    HOKUM_81_81 doubled by B -> A takes (8 + 8) x 2 = 32; doubled by A
    (B bought) and tripled by B -> B takes (8 + 8) x 3 = 48."""
    doubled = hokum_result(HOKUM_81_81, call(2, "double", False), call(3, "pass"), call(1, "pass"))
    assert doubled["points"] == {"A": 32, "B": 0}
    tripled = b_hokum(
        HOKUM_81_81,
        call(3, "double", False),
        call(4, "triple", False),
        call(1, "pass"),
        call(3, "pass"),
    )
    assert tripled["contract"]["multiplier"] == 3
    assert tripled["points"] == {"A": 0, "B": 48}


# --- D25 ----------------------------------------------------------------------


def sweep_result(hokum: bool, *calls: Action) -> dict[str, Any]:
    """P1 holds every spade and takes every trick."""
    d = sweep_deal()
    actions = hokum_by_p1(d, *calls) if hokum else sun_by_p1(d)
    return last(run(start(d), actions + no_declarations(4) + plays(d, sweep_tricks(d))))


def test_d25_sun_sweep_is_44() -> None:
    """D25: Sun sweep = (120 + 10 + 90) / 5 = 44."""
    result = sweep_result(False)
    assert result["card_points"] == {"A": 220, "B": 0}
    assert result["points"] == {"A": 44, "B": 0}


def test_d25_hokum_sweep_is_25() -> None:
    """D25: Hokum sweep = 152 + 10 + 90 = 252 -> 25."""
    result = sweep_result(True)
    assert result["card_points"] == {"A": 252, "B": 0}
    assert result["points"] == {"A": 25, "B": 0}


def test_d25_sweep_is_multiplied() -> None:
    """D25: multiplied like everything else: 25 x 2 = 50."""
    result = sweep_result(True, call(2, "double", False), call(3, "pass"), call(1, "pass"))
    assert result["points"] == {"A": 50, "B": 0}


def test_d25_defenders_sweep() -> None:
    """D25 (seeds: a team that takes all the cards gets 90): P2 bids Sun with
    the face-up AH, P1 leads spades and takes every trick: A 220 -> 44 and
    the bidders lose."""
    d = deal(4, SWEEP, "AH", 2)
    actions = [bid(1, "pass"), bid(2, "sun"), *no_declarations(4), *plays(d, sweep_tricks(d))]
    result = last(run(start(d), actions))
    assert result["card_points"] == {"A": 220, "B": 0}
    assert result["points"] == {"A": 44, "B": 0}


# --- D26 ----------------------------------------------------------------------

# P1 wins all only by leading AS first: P2's only spade (TS) falls under it.
SAWA_LEAD_ORDER = {
    1: "AS KS AD TD KD QD JD 9D",
    2: "TS AH TH KH QH JH 9H 8H",
    3: "QS JS 9S 8S 7H 8D 7D AC",
    4: "7S KC QC JC TC 9C 8C 7C",
}
# The same with P2 holding 7S too: it keeps TS for the KS.
SAWA_LEAD_ORDER_FAILS = {
    1: "AS KS AD TD KD QD JD 9D",
    2: "TS 7S AH TH KH QH JH 9H",
    3: "QS JS 9S 8S 7H 8D 7D AC",
    4: "8H KC QC JC TC 9C 8C 7C",
}
# P1's KH can be overtaken by the partner's AH.
SAWA_PARTNER = {
    1: "AS TS KS QS JS 9S 8S KH",
    2: "7D 8D 9D TD JD QD KD AD",
    3: "AH TH QH JH 9H 8H 7H 7S",
    4: "7C 8C 9C TC JC QC KC AC",
}
SAWA_PARTNER_OK = {
    1: "AS TS KS QS JS 9S 8S AH",
    2: "7D 8D 9D TD JD QD KD AD",
    3: "KH TH QH JH 9H 8H 7H 7S",
    4: "7C 8C 9C TC JC QC KC AC",
}


def sawa_start(hands: dict[int, str]) -> tuple[Deal, Any]:
    """Sun by P1 (face-up 8S or 9D, whichever P1 holds), nothing declared."""
    faceup = "9D" if "9D" in hands[1] else "8S"
    d = deal(4, hands, faceup, 1)
    return d, run(start(d), sun_by_p1(d) + no_declarations(4))


def test_d26_claimer_chooses_each_lead() -> None:
    """D26: the claimer chooses each lead after seeing the previous trick:
    AS first fells the TS, then KS and the diamonds win. Valid: the Sawa
    button is offered; claimed, it is a sweep (220 -> 44)."""
    _, state = sawa_start(SAWA_LEAD_ORDER)
    assert frozen([sawa(1)]) <= legal(state)
    state = rules.apply(state, sawa(1))
    result = last(state)
    assert result["outcome"] == "sawa"
    assert result["card_points"] == {"A": 220, "B": 0}
    assert result["points"] == {"A": 44, "B": 0}


def test_d26_claim_fails_against_some_legal_play() -> None:
    """D26: against any legal play of the other three: P2 plays 7S under the
    AS and keeps TS for the KS. No button; the claim is refused."""
    _, state = sawa_start(SAWA_LEAD_ORDER_FAILS)
    assert frozen([sawa(1)]).isdisjoint(legal(state))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, sawa(1))


def test_d26_partner_counts_as_an_adversary() -> None:
    """D26: the claimer must win every trick himself, the partner included:
    P3 may overtake P1's KH with the AH."""
    _, state = sawa_start(SAWA_PARTNER)
    assert frozen([sawa(1)]).isdisjoint(legal(state))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, sawa(1))
    _, state = sawa_start(SAWA_PARTNER_OK)
    assert frozen([sawa(1)]) <= legal(state)


def test_d26_mid_deal_sawa_takes_the_rest_and_the_last_trick() -> None:
    """D26: the claimer's team takes all remaining cards and the last trick's
    10: after SUN_SAWA_MID's five tricks P4 claims: A 56, B 74 -> 12 / 14,
    the bidders lose: B 26."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4) + plays(d, SUN_SAWA_MID))
    assert state.turn == 4
    assert frozen([sawa(4)]) <= legal(state)
    state = rules.apply(state, sawa(4))
    result = last(state)
    assert result["outcome"] == "sawa"
    assert result["card_points"] == {"A": 56, "B": 74}
    assert result["points"] == {"A": 0, "B": 26}


def test_d26_only_the_leader_at_its_turn_to_lead() -> None:
    """D26: at their turn to lead only: not another seat, not mid-trick."""
    _, state = sawa_start(SAWA_LEAD_ORDER)
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, sawa(2))
    state = rules.apply(state, play(1, "AS"))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, sawa(1))
    assert frozen([sawa(2)]).isdisjoint(legal(state))


# P1 holds seven trumps and AH; P2's only trump is 7S and it has no heart.
SAWA_LOCK = {
    1: "JS 9S AS TS KS QS 8S AH",
    2: "7S AD TD KD QD JD 9D 8D",
    3: "KH QH JH TH 9H 8H 7H 7D",
    4: "AC TC KC QC JC 9C 8C 7C",
}


def test_d26_sawa_counts_only_legal_leads_in_lock_mode() -> None:
    """D26 + D4: open, P1 draws the 7S with a trump lead and then cashes the
    AH: Sawa valid. Locked, P1 must lead the AH first (it holds a non-trump)
    and P2 must trump it: no Sawa."""
    d = deal(4, SAWA_LOCK, "8S", 1)
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    assert frozen([sawa(1)]) <= legal(state)
    calls = (call(2, "double", True), call(3, "pass"), call(1, "pass"))
    state = run(start(d), hokum_by_p1(d, *calls) + no_declarations(4))
    assert frozen([sawa(1)]).isdisjoint(legal(state))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, sawa(1))
