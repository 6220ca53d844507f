"""Timers: rules-decisions.md D17, the action a timer forces (marked ``auto``)."""

from __future__ import annotations

import pytest

import games.rules as rules

from .deals import HOKUM_84_78, hokum_blocks, hokum_by_p1, sun_blocks, sun_by_p1, sweep_deal
from .scenarios import (
    Deal,
    bid,
    call,
    document,
    fill_deal,
    frozen,
    legal,
    no_declarations,
    play,
    plays,
    replay,
    run,
    start,
)


def test_d17_bidding_timer_passes() -> None:
    """D17 (seeds: 8 s for bidding, then the player automatically passes)."""
    assert rules.forced_action(start(sun_blocks())) == {"seat": 1, "bid": "pass", "auto": True}


def test_d17_hokum_bidder_timer_confirms_in_round_one() -> None:
    """D17: where Pass is not an option the Hokum bidder confirms Hokum."""
    state = run(start(sun_blocks()), [bid(1, "hokum"), bid(2, "pass"), bid(3, "pass")])
    state = rules.apply(state, bid(4, "pass"))
    assert rules.forced_action(state) == {"seat": 1, "bid": "confirm", "auto": True}


@pytest.mark.parametrize(("d", "trump"), [(sun_blocks(), "S"), (hokum_blocks(), "H")])
def test_d17_second_round_confirm_takes_the_first_suit_not_face_up(d: Deal, trump: str) -> None:
    """D17: second round: the first suit in S, H, D, C order that is not the
    face-up suit (face-up 9H -> spades; face-up KS -> hearts)."""
    actions = [bid(s, "pass") for s in (1, 2, 3, 4)]
    actions += [bid(1, "hokum"), bid(2, "pass"), bid(3, "pass"), bid(4, "pass")]
    state = run(start(d), actions)
    assert rules.forced_action(state) == {
        "seat": 1,
        "bid": "confirm",
        "trump": trump,
        "auto": True,
    }


def test_d17_ashkal_response_timer_passes() -> None:
    """D17: an Ashkal response passes."""
    state = run(start(sun_blocks()), [bid(1, "pass"), bid(2, "pass"), bid(3, "ashkal")])
    assert rules.forced_action(state) == {"seat": 2, "bid": "pass", "auto": True}


def test_d17_multiplier_timer_passes() -> None:
    """D17: every multiplier decision has 8 s, then it is a Pass."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d, call(2, "double", True)))
    assert rules.forced_action(state) == {"seat": 3, "double": "pass", "auto": True}


def test_d17_declaration_timer_declares_nothing() -> None:
    """D17: declarations: none, even with four kings in hand (P3)."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4)[:2])
    assert rules.forced_action(state) == {"seat": 3, "declare": [], "auto": True}


def test_d17_play_lowest_points_then_lowest_trick_order() -> None:
    """D17: the legal card with the lowest card points, then the lowest in
    trick order: P1 holds AS 9S QD 7D TC 9C AH 9H -> 7D; P2 following the AS
    with TS or 8S -> 8S."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    assert rules.forced_action(state) == {"seat": 1, "play": "7D", "auto": True}
    state = rules.apply(state, play(1, "AS"))
    assert rules.forced_action(state) == {"seat": 2, "play": "8S", "auto": True}


def test_d17_play_suit_order_breaks_the_last_tie() -> None:
    """D17: then suits in the order S, H, D, C: 9H 9C 9S all 0 points and of
    the same rank -> 9S."""
    d = fill_deal(4, {1: "9H 9C 9S AD TD KD QD JD"}, "AD", 1)
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    assert rules.forced_action(state) == {"seat": 1, "play": "9S", "auto": True}


def test_d17_play_prefers_a_non_trump_on_equal_points() -> None:
    """D17: preferring a non-trump: trump 7S, 8S and plain 8H, 9D are all 0;
    the plain cards come first, then trick order: 8H."""
    d = fill_deal(4, {1: "7S 8S 8H 9D AH AD AC TC"}, "8S", 1)
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    assert rules.forced_action(state) == {"seat": 1, "play": "8H", "auto": True}


def test_d17_play_prefers_a_non_trump_queen_to_the_trump_queen() -> None:
    """D17: QS (trump, 3) and QH (3) tie on points; the non-trump goes."""
    d = fill_deal(4, {1: "QS QH AD AC TD TC KD KC"}, "QS", 1)
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    assert rules.forced_action(state) == {"seat": 1, "play": "QH", "auto": True}


def test_d17_play_points_come_before_the_non_trump_preference() -> None:
    """D17: the trump 7 (0 points) goes before a plain J (2)."""
    d = fill_deal(4, {1: "7S AH TH KH QH JD AD TD"}, "7S", 1)
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    assert rules.forced_action(state) == {"seat": 1, "play": "7S", "auto": True}


def test_d17_forced_play_never_announces_baloot() -> None:
    """D17: a forced action never announces Baloot: P1 follows the TS with QS
    (3 points, less than KS) and no announcement."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + plays(d, HOKUM_84_78[:6]))
    state = rules.apply(state, play(4, "TS"))
    assert frozen([{"seat": 1, "play": "QS", "baloot": True}]) <= legal(state)
    assert rules.forced_action(state) == {"seat": 1, "play": "QS", "auto": True}


def test_d17_forced_play_never_claims_sawa() -> None:
    """D17: a forced action never claims Sawa, even when it is valid (P1 holds
    every spade in Sun)."""
    d = sweep_deal()
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    assert frozen([{"seat": 1, "sawa": True}]) <= legal(state)
    assert rules.forced_action(state) == {"seat": 1, "play": "7S", "auto": True}


def test_d17_auto_action_must_be_the_forced_choice() -> None:
    """D17 / notation.md: an action marked auto must be exactly the forced
    choice: an auto Sun is an error at that action; an auto Pass is fine."""
    d = sun_blocks()
    bad = document("classic", [(d, [{"seat": 1, "bid": "sun", "auto": True}])])
    with pytest.raises(rules.NotationError) as caught:
        replay(bad, allow_unfinished=True)
    assert (caught.value.round, caught.value.action) == (1, 1)
    good = document("classic", [(d, [{"seat": 1, "bid": "pass", "auto": True}])])
    assert replay(good, allow_unfinished=True).turn == 2


def test_d17_no_forced_action_when_nobody_acts() -> None:
    """D17: between deals nobody is to act, so nothing can be forced."""
    state = run(start(sun_blocks()), [bid(s, "pass") for s in (1, 2, 3, 4)] * 2)
    with pytest.raises(rules.WrongPhase):
        rules.forced_action(state)
