"""The match: rules-decisions.md D27 (target, Classic and Quick), D28 (who
wins after a deal), D29 (Gahwa ends the match, see also
test_d13_d16_multipliers)."""

from __future__ import annotations

from typing import Any

import pytest

import games.rules as rules

from .deals import SUN_65_65, SUN_66_64, sun_blocks, sun_by_p1, sweep_deal
from .scenarios import (
    Action,
    Deal,
    bid,
    call,
    declarations,
    document,
    no_declarations,
    plays,
    replay,
    run,
    start,
    sweep_tricks,
)

HUNDRED = ("hundred", "TS JS QS KS AS")


def no_double(d: Deal) -> list[Action]:
    """Defenders above 100 may double a first-round Sun (D13): both pass."""
    return [call(d.seat(2), "pass"), call(d.seat(4), "pass")]


def sweep_round(
    dealer: int, project: tuple[str, str] | None = None, doubling: bool = False
) -> tuple[Deal, list[Action]]:
    """P1 bids Sun and takes every trick: 220 -> 44; with a Hundred
    320 -> 64."""
    d = sweep_deal(dealer)
    declared = {d.seat(1): [project]} if project else {}
    calls = no_double(d) if doubling else []
    return d, sun_by_p1(d) + calls + declarations(dealer, declared) + plays(d, sweep_tricks(d))


def play_rounds(mode: str, rounds: list[tuple[Deal, list[Action]]]) -> list[Any]:
    """Play the rounds in one match; the state after each."""
    states: list[Any] = []
    state = None
    for d, actions in rounds:
        state = run(start(d, mode=mode, state=state), actions)
        states.append(state)
    return states


def test_d27_classic_starts_at_0_quick_at_52() -> None:
    """D27 (seeds): Classic starts both teams at 0, Quick at 52."""
    assert rules.new_match(mode="classic", dealer=4).score == {"A": 0, "B": 0}
    assert rules.new_match(mode="quick", dealer=4).score == {"A": 52, "B": 52}


def test_d27_quick_scores_add_to_52() -> None:
    """D27: a Sun sweep (44) in Quick mode: 52 + 44 = 96."""
    (state,) = play_rounds("quick", [sweep_round(4)])
    assert state.score == {"A": 96, "B": 52}
    assert state.winner is None


def test_d28_first_to_152_wins_after_the_deal() -> None:
    """D27 + D28: target 152: Quick, three sweeps with a Hundred (64 each):
    A 116, B 116, then A 180 > 116 wins."""
    states = play_rounds(
        "quick",
        [
            sweep_round(4, HUNDRED),
            sweep_round(1, HUNDRED, doubling=True),
            sweep_round(2, HUNDRED, doubling=True),
        ],
    )
    assert [s.score for s in states] == [
        {"A": 116, "B": 52},
        {"A": 116, "B": 116},
        {"A": 180, "B": 116},
    ]
    assert [s.winner for s in states] == [None, None, "A"]
    assert states[1].phase == rules.Phase.ROUND_OVER
    assert states[2].phase == rules.Phase.MATCH_OVER


def test_d27_classic_needs_the_full_152() -> None:
    """D27: Classic, three sweeps with a Hundred: A 128 after two, 192 after
    three... only the team at 152 or more wins."""
    states = play_rounds(
        "classic", [sweep_round(4, HUNDRED), sweep_round(1), sweep_round(2, HUNDRED)]
    )
    assert [s.score for s in states] == [
        {"A": 64, "B": 0},
        {"A": 64, "B": 44},
        {"A": 128, "B": 44},
    ]
    assert states[2].winner is None


def level_at_153() -> list[tuple[Deal, list[Action]]]:
    """Quick: four plain sweeps (A, B, A, B: 140 each), then SUN_65_65 with
    A bidding (13 / 13): 153 / 153."""
    rounds = [sweep_round(4), sweep_round(1), sweep_round(2), sweep_round(3, doubling=True)]
    d = sun_blocks(4)
    rounds.append((d, sun_by_p1(d) + no_double(d) + no_declarations(4) + plays(d, SUN_65_65)))
    return rounds


def test_d28_both_at_152_and_level_play_goes_on() -> None:
    """D28: if both are at 152 or more and level, play goes on."""
    states = play_rounds("quick", level_at_153())
    assert states[3].score == {"A": 140, "B": 140}
    assert states[4].score == {"A": 153, "B": 153}
    assert states[4].winner is None
    assert states[4].phase == rules.Phase.ROUND_OVER


def test_d28_both_above_152_the_higher_wins() -> None:
    """D28: one team at 152 or more and above the other wins: dealer 1, P1
    is seat 2 (B) bidding Sun on SUN_66_64: B 153 + 14 = 167, A 153 + 12 = 165."""
    d = sun_blocks(1)
    actions = sun_by_p1(d) + no_double(d) + no_declarations(1) + plays(d, SUN_66_64)
    rounds = [*level_at_153(), (d, actions)]
    states = play_rounds("quick", rounds)
    assert states[5].score == {"A": 165, "B": 167}
    assert states[5].winner == "B"


def test_d28_no_round_after_the_match_is_won() -> None:
    """D28 / notation.md: a round after the match was won is a round-level
    error (action 0); no deal can start."""
    rounds = [
        sweep_round(4, HUNDRED),
        sweep_round(1, HUNDRED, doubling=True),
        sweep_round(2, HUNDRED, doubling=True),
    ]
    state = play_rounds("quick", rounds)[-1]
    with pytest.raises(rules.WrongPhase):
        rules.start_deal(state, list(sun_blocks(3).deck))
    extra = sun_blocks(3)
    doc = document("quick", [*rounds, (extra, [bid(4, "pass")])])
    with pytest.raises(rules.NotationError) as caught:
        replay(doc, allow_unfinished=True)
    assert (caught.value.round, caught.value.action) == (4, 0)
    assert replay(document("quick", rounds)).winner == "A"
