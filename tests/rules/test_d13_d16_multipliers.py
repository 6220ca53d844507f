"""Multipliers: rules-decisions.md D13 (Sun/Ashkal double), D14 (Hokum
chain), D15 (open or locked), D16 and D29 (Gahwa)."""

from __future__ import annotations

from typing import Any

import pytest

import games.rules as rules

from .deals import (
    HOKUM_70_92,
    HOKUM_81_81,
    HOKUM_92_70,
    SUN_65_65,
    SUN_66_64,
    hokum_blocks,
    hokum_by_p1,
    sun_blocks,
    sweep_deal,
)
from .scenarios import (
    Action,
    Deal,
    bid,
    call,
    declarations,
    document,
    frozen,
    last,
    legal,
    legal_plays,
    no_declarations,
    plays,
    replay,
    run,
    start,
    sweep_tricks,
)


def b_sweeps(project: tuple[str, str]) -> tuple[Deal, list[Action]]:
    """Quick mode, dealer 1: P1 (seat 2, team B) bids Sun, declares
    ``project`` and takes every trick: 220 card points + the project."""
    d = sweep_deal(dealer=1)
    actions = [bid(2, "sun"), *declarations(1, {2: [project]}), *plays(d, sweep_tricks(d))]
    return d, actions


def after_b_sweep(project: tuple[str, str]) -> Any:
    """The match after b_sweeps: B = 52 + (220 + project) / 5."""
    d, actions = b_sweeps(project)
    return run(start(d, mode="quick"), actions)


FIFTY = ("fifty", "7S 8S 9S TS")  # 220 + 50 = 270 -> 54: B = 52 + 54 = 106
SIRA = ("sira", "7S 8S 9S")  # 220 + 20 = 240 -> 48: B = 52 + 48 = 100


def test_d13_setup_scores() -> None:
    """D13 set-up, checked by hand: quick mode starts at 52 (D27); a Sun sweep
    with a Fifty is 220 + 50 = 270 -> 54, with a Sira 240 -> 48."""
    assert after_b_sweep(FIFTY).score == {"A": 52, "B": 106}
    assert after_b_sweep(SIRA).score == {"A": 52, "B": 100}


def sun_by_seat3(state: Any) -> tuple[Deal, Any]:
    """Deal 2 (dealer 2): P1 is seat 3 (team A) and bids Sun."""
    d = sun_blocks(dealer=2)
    return d, run(start(d, state=state), [bid(3, "sun")])


# --- D13 ----------------------------------------------------------------------


def test_d13_sun_double_offered_when_defenders_exceed_100() -> None:
    """D13: doubling exists when the contract was made in the first bidding
    round and the defenders' match score exceeds 100 (B: 106). Defenders are
    asked in turn order after the bidder: seat 4 first. No lock in Sun."""
    _, state = sun_by_seat3(after_b_sweep(FIFTY))
    assert state.phase == rules.Phase.DOUBLING
    assert legal(state) == frozen([{"seat": 4, "double": "double"}, {"seat": 4, "double": "pass"}])


def test_d13_no_sun_double_at_exactly_100() -> None:
    """D13: "exceeds 100": defenders at exactly 100 cannot double."""
    _, state = sun_by_seat3(after_b_sweep(SIRA))
    assert state.phase == rules.Phase.DECLARING


def test_d13_bidders_score_does_not_open_the_double() -> None:
    """D13: only the defenders' score counts: B (106) bidding Sun against A
    (52) gives no double."""
    d = sun_blocks(dealer=2)
    state = run(start(d, state=after_b_sweep(FIFTY)), [bid(3, "pass"), bid(4, "sun")])
    assert state.phase == rules.Phase.DECLARING


def test_d13_no_sun_double_in_the_second_bidding_round() -> None:
    """D13 (seeds: choosing Sun/Ashkal in the second round disables doubling)."""
    d = sun_blocks(dealer=2)
    passes = [bid(s, "pass") for s in (3, 4, 1, 2)]
    state = run(start(d, state=after_b_sweep(FIFTY)), [*passes, bid(3, "sun")])
    assert state.phase == rules.Phase.DECLARING


def test_d13_second_defender_may_double_and_it_multiplies_by_two() -> None:
    """D13: each defender in turn may Double; one Double makes it x2.
    SUN_66_64 doubled: 14 + 12 = 26, x2 = 52 to the winning bidders (D24)."""
    d, state = sun_by_seat3(after_b_sweep(FIFTY))
    state = rules.apply(state, call(4, "pass"))
    assert legal(state) == frozen([{"seat": 2, "double": "double"}, {"seat": 2, "double": "pass"}])
    state = rules.apply(state, call(2, "double"))
    assert state.phase == rules.Phase.DECLARING
    state = run(state, no_declarations(2) + plays(d, SUN_66_64))
    result = last(state)
    assert result["contract"]["multiplier"] == 2
    assert result["card_points"] == {"A": 66, "B": 64}
    assert result["points"] == {"A": 52, "B": 0}
    assert state.score == {"A": 104, "B": 106}


def test_d13_one_double_ends_the_calls() -> None:
    """D13: one Double ends the calls (no Triple, Four or Gahwa in Sun; the
    other defender is not asked)."""
    _, state = sun_by_seat3(after_b_sweep(FIFTY))
    state = rules.apply(state, call(4, "double"))
    assert state.phase == rules.Phase.DECLARING
    assert state.turn == 3


def test_d13_both_defenders_pass() -> None:
    """D13: both pass: multiplier 1; SUN_66_64 scores 14 / 12."""
    d, state = sun_by_seat3(after_b_sweep(FIFTY))
    state = run(state, [call(4, "pass"), call(2, "pass")])
    state = run(state, no_declarations(2) + plays(d, SUN_66_64))
    assert last(state)["points"] == {"A": 14, "B": 12}
    assert state.score == {"A": 66, "B": 118}


def test_d13_bidders_cannot_double_in_sun() -> None:
    """D13: the defenders double, not the bidders."""
    _, state = sun_by_seat3(after_b_sweep(FIFTY))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, call(3, "double"))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, call(4, "double", True))


def test_d13_ashkal_double_same_as_sun() -> None:
    """D13 (seeds: Ashkal doubling is available in the first round, same rules
    as Sun): seat 1 (P3) calls Ashkal; defenders from the bidder's right:
    seat 2 first."""
    d = sun_blocks(dealer=2)
    actions = [bid(3, "pass"), bid(4, "pass"), bid(1, "ashkal"), bid(4, "pass")]
    state = run(start(d, state=after_b_sweep(FIFTY)), actions)
    assert state.phase == rules.Phase.DOUBLING
    assert legal(state) == frozen([{"seat": 2, "double": "double"}, {"seat": 2, "double": "pass"}])


def test_d13_d24_doubled_sun_exact_tie_goes_against_the_doubling_team() -> None:
    """D24: on an exact tie in a doubled round the team that called the first
    Double loses: SUN_65_65 doubled by B: A takes (13 + 13) x 2 = 52."""
    d, state = sun_by_seat3(after_b_sweep(FIFTY))
    state = run(state, [call(4, "double"), *no_declarations(2), *plays(d, SUN_65_65)])
    assert last(state)["points"] == {"A": 52, "B": 0}


# --- D14 ----------------------------------------------------------------------


def lock_options(seat: int, value: str) -> set[object]:
    """A call with both lock choices, and Pass."""
    return frozen(
        [
            {"seat": seat, "double": value, "lock": True},
            {"seat": seat, "double": value, "lock": False},
            {"seat": seat, "double": "pass"},
        ]
    )


def hokum_state(*calls: Action) -> tuple[Deal, Any]:
    """HOKUM_BLOCKS, dealer 4, P1 (seat 1) confirms Hokum in spades; then calls."""
    d = hokum_blocks()
    actions = hokum_by_p1(d, call(2, "pass"))[:-1]  # bidding only
    return d, run(start(d), actions + list(calls))


def test_d14_double_is_asked_of_the_defenders_after_the_bidder() -> None:
    """D14: no score condition; Double by the defenders, asked in turn order
    starting after the bidder: seat 2, then seat 4; both pass: settled."""
    _, state = hokum_state()
    assert state.phase == rules.Phase.DOUBLING
    assert legal(state) == lock_options(2, "double")
    state = rules.apply(state, call(2, "pass"))
    assert legal(state) == lock_options(4, "double")
    state = rules.apply(state, call(4, "pass"))
    assert state.phase == rules.Phase.DECLARING


def test_d14_chain_order_double_triple_four_gahwa() -> None:
    """D14: at each step both players of the team to call are asked in turn
    order starting after the last caller; the first to call passes the turn
    to the other team; both pass: settled. x4 on HOKUM_92_70 (9 / 7):
    (9 + 7) x 4 = 64, + 2 for Baloot."""
    d, state = hokum_state(call(2, "pass"), call(4, "double", False))
    assert legal(state) == lock_options(1, "triple")
    state = rules.apply(state, call(1, "pass"))
    assert legal(state) == lock_options(3, "triple")
    state = rules.apply(state, call(3, "triple", True))
    assert legal(state) == lock_options(4, "four")
    state = rules.apply(state, call(4, "pass"))
    assert legal(state) == lock_options(2, "four")
    state = rules.apply(state, call(2, "four", False))
    assert legal(state) == frozen([{"seat": 3, "double": "gahwa"}, {"seat": 3, "double": "pass"}])
    state = rules.apply(state, call(3, "pass"))
    assert legal(state) == frozen([{"seat": 1, "double": "gahwa"}, {"seat": 1, "double": "pass"}])
    state = rules.apply(state, call(1, "pass"))
    assert state.phase == rules.Phase.DECLARING
    state = run(state, no_declarations(4) + plays(d, HOKUM_92_70, baloot={"KS"}))
    result = last(state)
    assert result["contract"] == {
        "type": "hokum",
        "trump": "S",
        "bidder": 1,
        "multiplier": 4,
        "gahwa": False,
        "lock": False,
    }
    assert result["points"] == {"A": 66, "B": 0}


def test_d14_triple_settles_when_the_defenders_pass() -> None:
    """D14: Double by seat 2, Triple by seat 3 (after seat 2: seat 3 first),
    both defenders pass: x3. HOKUM_92_70: (9 + 7) x 3 = 48 + 2 Baloot."""
    d, state = hokum_state(call(2, "double", False))
    assert legal(state) == lock_options(3, "triple")
    state = run(state, [call(3, "triple", False), call(4, "pass"), call(2, "pass")])
    state = run(state, no_declarations(4) + plays(d, HOKUM_92_70, baloot={"KS"}))
    assert last(state)["contract"]["multiplier"] == 3
    assert last(state)["points"] == {"A": 50, "B": 0}


def test_d14_bidders_pass_the_triple() -> None:
    """D14: after the Double, both bidders pass: x2."""
    d, state = hokum_state(call(2, "double", False), call(3, "pass"), call(1, "pass"))
    assert state.phase == rules.Phase.DECLARING
    state = run(state, no_declarations(4) + plays(d, HOKUM_92_70))
    assert last(state)["contract"]["multiplier"] == 2
    assert last(state)["points"] == {"A": 32, "B": 0}


def test_d14_hokum_in_the_second_round_can_be_doubled() -> None:
    """D14: Hokum, either round, no score condition."""
    d = hokum_blocks()
    actions = [bid(s, "pass") for s in (1, 2, 3, 4)]
    actions += [bid(1, "hokum"), bid(2, "pass"), bid(3, "pass"), bid(4, "pass")]
    actions.append(bid(1, "confirm", "H"))
    state = run(start(d), actions)
    assert state.phase == rules.Phase.DOUBLING
    assert legal(state) == lock_options(2, "double")


def test_d14_out_of_order_call_is_refused() -> None:
    """D14: seat 4 is not asked before seat 2; a Triple is not a defenders' call."""
    _, state = hokum_state()
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, call(4, "double", True))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, call(2, "triple", True))


# --- D15 ----------------------------------------------------------------------

NON_TRUMPS_P1 = {"AH", "7H", "AD", "7D", "AC", "7C"}


def to_first_lead(d: Deal, state: Any) -> Any:
    """Settled calls -> four empty declarations -> P1 to lead."""
    return run(state, no_declarations(4))


def test_d15_latest_call_open_overrides_an_earlier_lock() -> None:
    """D15: the latest call's choice holds: Double locked, Triple open -> open."""
    d, state = hokum_state(
        call(2, "double", True), call(3, "triple", False), call(4, "pass"), call(2, "pass")
    )
    state = to_first_lead(d, state)
    assert legal_plays(state) == NON_TRUMPS_P1 | {"KS", "QS"}
    state = run(state, plays(d, HOKUM_92_70))
    assert last(state)["contract"]["lock"] is False


def test_d15_latest_call_lock_overrides_an_earlier_open() -> None:
    """D15: Double open, Triple locked -> locked (D4 applies)."""
    d, state = hokum_state(
        call(2, "double", False), call(3, "triple", True), call(4, "pass"), call(2, "pass")
    )
    state = to_first_lead(d, state)
    assert legal_plays(state) == NON_TRUMPS_P1


def test_d15_gahwa_is_always_open() -> None:
    """D15: Gahwa is always open, whatever the earlier calls chose."""
    d, state = hokum_state(
        call(2, "double", True), call(3, "triple", True), call(4, "four", True), call(1, "gahwa")
    )
    state = to_first_lead(d, state)
    assert legal_plays(state) == NON_TRUMPS_P1 | {"KS", "QS"}


def test_d15_gahwa_takes_no_lock_choice() -> None:
    """D15: a Gahwa call with a lock choice is refused."""
    _, state = hokum_state(call(2, "double", True), call(3, "triple", True), call(4, "four", True))
    with pytest.raises((rules.IllegalAction, rules.MalformedAction)):
        rules.apply(state, call(1, "gahwa", True))


# --- D16 / D29 ----------------------------------------------------------------

GAHWA = (call(2, "double", True), call(3, "triple", True), call(4, "four", True), call(1, "gahwa"))


def test_d16_gahwa_winner_adds_152_and_wins_at_once() -> None:
    """D16: the team that wins the round adds 152 and wins the match at once,
    whatever the scores were; the other adds 0; nothing else (Baloot) is
    added. Quick mode: A 52 + 152 = 204, B stays 52."""
    d = hokum_blocks()
    state = start(d, mode="quick")
    state = run(state, hokum_by_p1(d, *GAHWA) + no_declarations(4))
    state = run(state, plays(d, HOKUM_92_70, baloot={"KS"}))
    result = last(state)
    assert result["contract"]["gahwa"] is True
    assert result["contract"]["lock"] is False
    assert result["contract"]["multiplier"] == 4
    assert result["baloot"] == {"A": 20, "B": 0}
    assert result["points"] == {"A": 152, "B": 0}
    assert state.score == {"A": 204, "B": 52}
    assert state.winner == "A"
    assert state.phase == rules.Phase.MATCH_OVER


def test_d16_gahwa_lost_by_the_bidders_wins_for_the_defenders() -> None:
    """D16: the round's winner (D21) takes 152: HOKUM_70_92 (7 / 9) under a
    Gahwa called by A: B adds 152 and wins."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d, *GAHWA) + no_declarations(4))
    state = run(state, plays(d, HOKUM_70_92, baloot={"QS"}))
    assert last(state)["points"] == {"A": 0, "B": 152}
    assert state.score == {"A": 0, "B": 152}
    assert state.winner == "B"


def test_d16_gahwa_exact_tie_goes_against_the_first_double() -> None:
    """D16 + D24: a Gahwa round is doubled (multiplier > 1); on the exact tie
    of HOKUM_81_81 the team that called the first Double (B) loses."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d, *GAHWA) + no_declarations(4) + plays(d, HOKUM_81_81))
    assert last(state)["points"] == {"A": 152, "B": 0}
    assert state.winner == "A"


def test_d29_gahwa_ends_the_match_no_further_deal() -> None:
    """D29: Gahwa ends the match at once: no deal may follow, and a document
    with one more round is an error at that round, action 0."""
    d = hokum_blocks()
    actions = hokum_by_p1(d, *GAHWA) + no_declarations(4) + plays(d, HOKUM_92_70)
    state = run(start(d), actions)
    with pytest.raises(rules.WrongPhase):
        rules.start_deal(state, list(sun_blocks(dealer=1).deck))
    extra = sun_blocks(dealer=1)
    doc = document("classic", [(d, actions), (extra, [bid(2, "pass")])])
    with pytest.raises(rules.NotationError) as caught:
        replay(doc, allow_unfinished=True)
    assert (caught.value.round, caught.value.action) == (2, 0)


def test_d13_hokum_bidder_switching_to_sun_in_round_one_can_be_doubled() -> None:
    """D10 + D13: X's switch to Sun is a Sun contract made in the first
    bidding round, so defenders above 100 may double it."""
    d = sun_blocks(dealer=2)
    actions = [bid(3, "hokum"), bid(4, "pass"), bid(1, "pass"), bid(2, "pass"), bid(3, "sun")]
    state = run(start(d, state=after_b_sweep(FIFTY)), actions)
    assert state.phase == rules.Phase.DOUBLING
    assert legal(state) == frozen([{"seat": 4, "double": "double"}, {"seat": 4, "double": "pass"}])


def test_d13_sun_double_asked_after_the_bidder_wrapping_round() -> None:
    """D13: defenders in turn order starting after the bidder: dealer 1, seat
    4 (P3, team B) bids Sun; A (106 after a Sun sweep with a Fifty) is asked
    from seat 1 (the dealer), not seat 3."""
    d0 = sweep_deal(dealer=4)
    first = [bid(1, "sun"), *declarations(4, {1: [FIFTY]}), *plays(d0, sweep_tricks(d0))]
    state = run(start(d0, mode="quick"), first)
    assert state.score == {"A": 106, "B": 52}
    d = sun_blocks(dealer=1)
    state = run(start(d, state=state), [bid(2, "pass"), bid(3, "pass"), bid(4, "sun")])
    assert legal(state) == frozen([{"seat": 1, "double": "double"}, {"seat": 1, "double": "pass"}])


def test_d15_hokum_calls_must_choose_open_or_locked() -> None:
    """D15 / notation.md: whoever calls Double, Triple or Four chooses open or
    locked; nothing is defaulted, so a Hokum Double without ``lock`` is refused."""
    _, state = hokum_state()
    with pytest.raises((rules.IllegalAction, rules.MalformedAction)):
        rules.apply(state, call(2, "double"))


def test_d13_sun_from_an_ashkal_answer_can_be_doubled() -> None:
    """D11 + D13: the Ashkal answer "Sun" is a Sun contract made in the
    first bidding round: dealer 1, seat 1 (P4, A) calls Ashkal, seat 4 (P3,
    B) answers Sun; A at 106 may double, seat 1 first."""
    d0 = sweep_deal(dealer=4)
    first = [bid(1, "sun"), *declarations(4, {1: [FIFTY]}), *plays(d0, sweep_tricks(d0))]
    state = run(start(d0, mode="quick"), first)
    d = sun_blocks(dealer=1)
    actions = [bid(2, "pass"), bid(3, "pass"), bid(4, "pass"), bid(1, "ashkal"), bid(4, "sun")]
    state = run(start(d, state=state), actions)
    assert state.phase == rules.Phase.DOUBLING
    assert legal(state) == frozen([{"seat": 1, "double": "double"}, {"seat": 1, "double": "pass"}])
