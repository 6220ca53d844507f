"""Bidding: rules-decisions.md D8 (options), D9 (Sun), D10 (Hokum and its
replies), D11 (Ashkal and its response), D12 (all pass)."""

from __future__ import annotations

import pytest

import games.rules as rules

from .deals import SUN_66_64, sun_blocks, sweep_deal
from .scenarios import (
    bid,
    call,
    dealt_hands,
    frozen,
    hand,
    last,
    legal,
    no_declarations,
    plays,
    run,
    start,
)

PASS_SUN_HOKUM = ("pass", "sun", "hokum")
WITH_ASHKAL = ("pass", "sun", "hokum", "ashkal")


def bids(seat: int, *values: str) -> set[object]:
    """The frozen set of plain bids ``values`` for ``seat``."""
    return frozen([{"seat": seat, "bid": v} for v in values])


def contract(state: rules.State) -> dict[str, object]:
    """The public contract of the running deal (a spectator's view)."""
    settled: dict[str, object] = rules.view_for(state, None)["contract"]
    return settled


# --- D8 -----------------------------------------------------------------------


def test_d8_first_round_options_by_position() -> None:
    """D8 (seeds): Sun, Hokum, Pass for P1 and P2; Sun, Hokum, Ashkal, Pass
    for P3 and P4. Dealer 2: P1..P4 are seats 3, 4, 1, 2."""
    state = start(sun_blocks(dealer=2))
    assert legal(state) == bids(3, *PASS_SUN_HOKUM)
    state = rules.apply(state, bid(3, "pass"))
    assert legal(state) == bids(4, *PASS_SUN_HOKUM)
    state = rules.apply(state, bid(4, "pass"))
    assert legal(state) == bids(1, *WITH_ASHKAL)
    state = rules.apply(state, bid(1, "pass"))
    assert legal(state) == bids(2, *WITH_ASHKAL)


def test_d8_second_round_has_the_same_options() -> None:
    """D8: the same options in both rounds; Hokum is "Second Hokum"."""
    state = run(start(sun_blocks()), [bid(s, "pass") for s in (1, 2, 3, 4)])
    assert rules.view_for(state, None)["bid_round"] == 2
    for seat, options in ((1, PASS_SUN_HOKUM), (2, PASS_SUN_HOKUM), (3, WITH_ASHKAL)):
        assert legal(state) == bids(seat, *options)
        state = rules.apply(state, bid(seat, "pass"))
    assert legal(state) == bids(4, *WITH_ASHKAL)


def test_d8_ashkal_is_refused_to_p1_and_p2() -> None:
    """D8 / seeds: Ashkal is only available to Players 3-4."""
    state = start(sun_blocks())
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, bid(1, "ashkal"))
    state = rules.apply(state, bid(1, "pass"))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, bid(2, "ashkal"))


def test_d8_out_of_turn_bid_is_refused() -> None:
    """D8 / seeds: bidding goes in turn order from the dealer's right."""
    with pytest.raises(rules.NotYourTurn):
        rules.apply(start(sun_blocks()), bid(2, "sun"))


# --- D9 -----------------------------------------------------------------------


def test_d9_sun_ends_the_bidding_and_its_bidder_takes_the_face_up_card() -> None:
    """D9: Sun ends the bidding at once; the Sun bidder takes the face-up card
    (P3 and P4 never bid)."""
    d = sun_blocks()
    state = run(start(d), [bid(1, "pass"), bid(2, "sun")])
    assert state.phase == rules.Phase.DECLARING
    assert state.turn == 1
    assert contract(state)["type"] == "sun"
    assert contract(state)["bidder"] == 2
    assert "9H" in hand(state, 2)


# --- D10 ----------------------------------------------------------------------


def test_d10_replies_to_hokum_in_turn_order_after_the_bidder() -> None:
    """D10: the other three reply in turn order starting after X; a seat that
    passed earlier still replies; P3/P4 may reply Ashkal; no reply Hokum."""
    state = run(start(sun_blocks()), [bid(1, "pass"), bid(2, "hokum")])
    assert legal(state) == bids(3, "pass", "sun", "ashkal")
    state = rules.apply(state, bid(3, "pass"))
    assert legal(state) == bids(4, "pass", "sun", "ashkal")
    state = rules.apply(state, bid(4, "pass"))
    assert legal(state) == bids(1, "pass", "sun")
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, bid(1, "hokum"))
    state = rules.apply(state, bid(1, "pass"))
    assert legal(state) == bids(2, "sun", "confirm")


def test_d10_a_sun_reply_ends_the_bidding() -> None:
    """D10: the first Sun reply ends the bidding as D9: that player is the Sun
    bidder and takes the face-up card."""
    state = run(start(sun_blocks()), [bid(1, "hokum"), bid(2, "pass"), bid(3, "sun")])
    assert state.phase == rules.Phase.DECLARING
    assert contract(state)["type"] == "sun"
    assert contract(state)["bidder"] == 3
    assert "9H" in hand(state, 3)


def test_d10_confirm_in_round_one_makes_the_face_up_suit_trump() -> None:
    """D10: all three pass, X confirms and takes the face-up card; first
    round: trump is the face-up card's suit (9H: hearts)."""
    state = run(
        start(sun_blocks()),
        [bid(1, "hokum"), bid(2, "pass"), bid(3, "pass"), bid(4, "pass"), bid(1, "confirm")],
    )
    assert state.phase == rules.Phase.DOUBLING
    assert contract(state)["type"] == "hokum"
    assert contract(state)["trump"] == "H"
    assert contract(state)["bidder"] == 1
    assert "9H" in hand(state, 1)


def test_d10_first_round_confirm_names_no_trump() -> None:
    """D10: in the first round the trump is not chosen."""
    state = run(start(sun_blocks()), [bid(1, "hokum")] + [bid(s, "pass") for s in (2, 3, 4)])
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, bid(1, "confirm", "S"))


def test_d10_hokum_bidder_may_switch_to_sun() -> None:
    """D10: if all three pass, X may choose Sun: X becomes the Sun bidder and
    takes the face-up card."""
    state = run(
        start(sun_blocks()),
        [bid(1, "hokum"), bid(2, "pass"), bid(3, "pass"), bid(4, "pass"), bid(1, "sun")],
    )
    assert state.phase == rules.Phase.DECLARING
    assert contract(state)["type"] == "sun"
    assert contract(state)["bidder"] == 1
    assert "9H" in hand(state, 1)


def test_d10_second_round_trump_is_any_suit_but_the_face_up_one() -> None:
    """D10: second round, X names the trump, any suit but the face-up card's."""
    passes = [bid(s, "pass") for s in (1, 2, 3, 4)]
    state = run(start(sun_blocks()), [*passes, bid(1, "hokum")])
    state = run(state, [bid(s, "pass") for s in (2, 3, 4)])
    assert legal(state) == frozen(
        [
            {"seat": 1, "bid": "sun"},
            {"seat": 1, "bid": "confirm", "trump": "S"},
            {"seat": 1, "bid": "confirm", "trump": "D"},
            {"seat": 1, "bid": "confirm", "trump": "C"},
        ]
    )
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, bid(1, "confirm", "H"))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, bid(1, "confirm"))
    state = rules.apply(state, bid(1, "confirm", "D"))
    assert contract(state)["trump"] == "D"
    assert state.phase == rules.Phase.DOUBLING
    assert "9H" in hand(state, 1)


def test_d10_ashkal_reply_to_a_hokum() -> None:
    """D10 + D11: an Ashkal reply proceeds as D11: the seat before the Ashkal
    caller answers Sun or Pass; Pass makes it Ashkal with P3 as bidder and
    P1 (P3's partner) taking the face-up card."""
    state = run(start(sun_blocks()), [bid(1, "hokum"), bid(2, "pass"), bid(3, "ashkal")])
    assert legal(state) == bids(2, "sun", "pass")
    state = rules.apply(state, bid(2, "pass"))
    assert state.phase == rules.Phase.DECLARING
    assert contract(state)["type"] == "ashkal"
    assert contract(state)["bidder"] == 3
    assert contract(state)["trump"] is None
    assert "9H" in hand(state, 1)


# --- D11 ----------------------------------------------------------------------


def test_d11_ashkal_by_p3_answered_by_p2_with_sun() -> None:
    """D11: the player on Y's left (the seat before Y) chooses Sun or Pass;
    Sun: that player is the Sun bidder and takes the face-up card."""
    d = sun_blocks()
    state = run(start(d), [bid(1, "pass"), bid(2, "pass"), bid(3, "ashkal")])
    assert legal(state) == bids(2, "sun", "pass")
    state = rules.apply(state, bid(2, "sun"))
    assert contract(state)["type"] == "sun"
    assert contract(state)["bidder"] == 2
    expected = dealt_hands(4, d.deck, 2)
    assert hand(state, 2) == set(expected[2])


def test_d11_ashkal_by_p4_passed_by_p3() -> None:
    """D11: Pass makes the contract Ashkal at once; Y (P4) is the bidder and
    Y's partner (P2) takes the face-up card."""
    d = sun_blocks()
    state = run(start(d), [bid(s, "pass") for s in (1, 2, 3)] + [bid(4, "ashkal")])
    assert legal(state) == bids(3, "sun", "pass")
    state = rules.apply(state, bid(3, "pass"))
    assert state.phase == rules.Phase.DECLARING
    assert contract(state)["type"] == "ashkal"
    assert contract(state)["bidder"] == 4
    expected = dealt_hands(4, d.deck, 2)
    for seat in (1, 2, 3, 4):
        assert hand(state, seat) == set(expected[seat])
    assert "9H" in hand(state, 2)


def test_d11_ashkal_pass_asks_no_one_else() -> None:
    """D11: after P3's Ashkal and P2's Pass, P4 is not asked."""
    state = run(start(sun_blocks()), [bid(1, "pass"), bid(2, "pass"), bid(3, "ashkal")])
    state = rules.apply(state, bid(2, "pass"))
    assert state.phase == rules.Phase.DECLARING
    assert state.turn == 1


def test_d11_ashkal_on_an_ace_face_up_card() -> None:
    """D11: Ashkal on an Ace face-up card is allowed (face-up AS)."""
    state = run(start(sweep_deal()), [bid(1, "pass"), bid(2, "pass"), bid(3, "ashkal")])
    state = rules.apply(state, bid(2, "pass"))
    assert contract(state)["type"] == "ashkal"
    assert "AS" in hand(state, 1)


def test_d11_ashkal_is_played_and_scored_as_sun() -> None:
    """D11: Ashkal is played and scored exactly as Sun: SUN_66_64 with P3's
    Ashkal (P1 takes the 9H): 66 -> 14, 64 -> 12."""
    d = sun_blocks()
    actions = [bid(1, "pass"), bid(2, "pass"), bid(3, "ashkal"), bid(2, "pass")]
    state = run(start(d), actions + no_declarations(4) + plays(d, SUN_66_64))
    result = last(state)
    assert result["contract"] == {
        "type": "ashkal",
        "trump": None,
        "bidder": 3,
        "multiplier": 1,
        "gahwa": False,
        "lock": False,
    }
    assert result["card_points"] == {"A": 66, "B": 64}
    assert result["points"] == {"A": 14, "B": 12}


def test_d11_ashkal_in_the_second_round() -> None:
    """D8 + D11: Ashkal is offered in the second round as well."""
    state = run(start(sun_blocks()), [bid(s, "pass") for s in (1, 2, 3, 4, 1, 2)])
    state = rules.apply(state, bid(3, "ashkal"))
    state = rules.apply(state, bid(2, "pass"))
    assert contract(state)["type"] == "ashkal"
    assert state.phase == rules.Phase.DECLARING


# --- D12 ----------------------------------------------------------------------


def test_d12_all_pass_in_round_one_starts_round_two_with_p1() -> None:
    """D12: all four pass in round 1: round 2 starts with P1 (dealer 3: seat 4)."""
    state = run(start(sun_blocks(dealer=3)), [bid(s, "pass") for s in (4, 1, 2, 3)])
    assert state.phase == rules.Phase.BIDDING
    assert state.turn == 4
    assert rules.view_for(state, None)["bid_round"] == 2


def test_d12_all_pass_twice_ends_the_deal_without_score() -> None:
    """D12: all four pass in round 2: the deal ends with no score (D6)."""
    state = run(start(sun_blocks()), [bid(s, "pass") for s in (1, 2, 3, 4)] * 2)
    assert state.phase == rules.Phase.ROUND_OVER
    assert last(state) == {
        "dealer": 4,
        "outcome": "all_passed",
        "contract": None,
        "card_points": {"A": 0, "B": 0},
        "projects": {"A": [], "B": []},
        "baloot": {"A": 0, "B": 0},
        "points": {"A": 0, "B": 0},
        "score": {"A": 0, "B": 0},
    }


def test_d12_doubling_call_is_not_a_bid() -> None:
    """D8-D12: a multiplier call during bidding is refused."""
    with pytest.raises(rules.IllegalAction):
        rules.apply(start(sun_blocks()), call(1, "double", True))


def test_d11_ashkal_reply_answered_by_the_hokum_bidder() -> None:
    """D10 + D11: P2 bids Hokum, P3 replies Ashkal: the seat just before P3
    is P2, the Hokum bidder itself, who answers Sun or Pass; its Sun makes
    it the Sun bidder."""
    state = run(start(sun_blocks()), [bid(1, "pass"), bid(2, "hokum"), bid(3, "ashkal")])
    assert legal(state) == bids(2, "sun", "pass")
    state = rules.apply(state, bid(2, "sun"))
    assert contract(state)["type"] == "sun"
    assert contract(state)["bidder"] == 2
    assert "9H" in hand(state, 2)


def test_d11_ashkal_reply_by_p4_to_p3s_hokum_passed() -> None:
    """D10 + D11: P3's Hokum, P4 replies Ashkal, P3 (just before P4) passes:
    Ashkal with P4 as bidder; P2 takes the face-up card."""
    actions = [bid(1, "pass"), bid(2, "pass"), bid(3, "hokum"), bid(4, "ashkal")]
    state = run(start(sun_blocks()), actions)
    assert legal(state) == bids(3, "sun", "pass")
    state = rules.apply(state, bid(3, "pass"))
    assert contract(state)["type"] == "ashkal"
    assert contract(state)["bidder"] == 4
    assert "9H" in hand(state, 2)
