"""Cards and tricks: rules-decisions.md D1-D4 (card points, trick order,
following, Lock mode)."""

from __future__ import annotations

import itertools

import pytest

import games.rules as rules

from .deals import (
    HOKUM_84_78,
    SUN_66_64,
    hokum_blocks,
    hokum_by_p1,
    sun_blocks,
    sun_by_p1,
)
from .scenarios import (
    RANKS,
    Deal,
    call,
    deal,
    fill_deal,
    last,
    legal_plays,
    low_play,
    no_declarations,
    play,
    plays,
    run,
    start,
)

# --- D1 -----------------------------------------------------------------------


def test_d1_sun_deal_holds_130_card_points() -> None:
    """D1: a Sun deal holds 120 card points, 130 with the last trick's 10.

    SUN_66_64 is added up trick by trick in deals.py: 66 + 64 = 130."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4) + plays(d, SUN_66_64))
    assert last(state)["card_points"] == {"A": 66, "B": 64}


def test_d1_hokum_deal_holds_162_card_points() -> None:
    """D1: trump J 20, 9 14, A 11, T 10, K 4, Q 3; a Hokum deal holds 152,
    162 with the last trick. HOKUM_84_78: 84 + 78 = 162 (the trick
    AS KS JS 9S alone is 11+4+20+14 = 49)."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + plays(d, HOKUM_84_78))
    assert last(state)["card_points"] == {"A": 84, "B": 78}


def test_d1_non_trump_cards_keep_sun_values_in_hokum() -> None:
    """D1: non-trump A 11, T 10, K 4, Q 3, J 2, 9/8/7 0, also in Hokum.

    HOKUM_84_78's first trick AH TH KH QH is 28 and 7H 8H 9H JH is 2: P1/P3
    take three such 28s = 84; a non-trump 9 valued like a trump 9 would add
    14 to P2/P4."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + plays(d, HOKUM_84_78[:2]))
    # After two tricks nothing is scored yet; the deal goes on with P4 to lead.
    assert state.turn == 4
    state = run(state, plays(d, HOKUM_84_78[2:]))
    assert last(state)["card_points"]["A"] == 84


# --- D2 -----------------------------------------------------------------------

SUN_ORDER = "789JQKTA"
TRUMP_ORDER = "78QKTA9J"


def _two_spades(mode: str, first: str, second: str) -> tuple[Deal, list[dict[str, object]]]:
    """P1 leads ``first``S, P2 plays ``second``S, P3 and P4 cannot follow
    (nor trump). Returns the deal and the actions up to the first lead."""
    if mode == "sun":
        d = fill_deal(4, {1: f"{first}S", 2: f"{second}S"}, f"{first}S", 1, void={3: "S", 4: "S"})
        return d, sun_by_p1_actions(d)
    if mode == "trump":
        d = fill_deal(4, {1: f"{first}S", 2: f"{second}S"}, f"{first}S", 1, void={3: "S", 4: "S"})
        return d, hokum_by_p1(d) + no_declarations(4)
    # Hokum in hearts: spades are a plain suit; P3/P4 hold neither suit.
    d = fill_deal(4, {1: f"{first}S AH", 2: f"{second}S"}, "AH", 1, void={3: "SH", 4: "SH"})
    return d, hokum_by_p1(d) + no_declarations(4)


def sun_by_p1_actions(d: Deal) -> list[dict[str, object]]:
    """Sun by P1 and four empty declarations."""
    return sun_by_p1(d) + no_declarations(d.dealer)


@pytest.mark.parametrize(
    ("mode", "order"),
    [("sun", SUN_ORDER), ("plain", SUN_ORDER), ("trump", TRUMP_ORDER)],
)
@pytest.mark.parametrize(("first", "second"), list(itertools.permutations(RANKS, 2)))
def test_d2_trick_order_every_pair_of_ranks(mode: str, order: str, first: str, second: str) -> None:
    """D2: Sun and non-trump 7<8<9<J<Q<K<T<A; trump 7<8<Q<K<T<A<9<J; the
    highest card of the led suit wins (the winner leads next)."""
    d, actions = _two_spades(mode, first, second)
    state = run(start(d), actions)
    state = run(state, [play(1, f"{first}S"), play(2, f"{second}S")])
    state = run(state, [play(3, d.hands[3][0]), play(4, d.hands[4][0])])
    expected = 2 if order.index(second) > order.index(first) else 1
    assert state.turn == expected


def test_d2_sun_off_suit_ace_does_not_win() -> None:
    """D2 / seeds: in Sun the led suit is highest; an ace of another suit loses."""
    d = fill_deal(4, {1: "7S", 2: "AH"}, "7S", 1, void={2: "S", 3: "S", 4: "S"})
    state = run(start(d), sun_by_p1_actions(d))
    state = run(
        state, [play(1, "7S"), play(2, "AH"), play(3, d.hands[3][0]), play(4, d.hands[4][0])]
    )
    assert state.turn == 1


def test_d2_lowest_trump_beats_the_led_ace() -> None:
    """D2: a trick is won by the highest trump; a trump 7 beats the led ace."""
    d = fill_deal(4, {1: "AS 8H", 2: "7H"}, "8H", 1, void={2: "S", 3: "H", 4: "H"})
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    state = run(state, [play(1, "AS"), play(2, "7H")])
    state = run(state, [low_play(state)])
    state = run(state, [low_play(state)])
    assert state.turn == 2


def test_d2_highest_trump_wins_not_the_first() -> None:
    """D2: with two trumps on the trick, the higher (J over 9) wins."""
    d = fill_deal(4, {1: "AS 8H", 2: "9H", 4: "JH"}, "8H", 1, void={2: "S", 3: "H", 4: "S"})
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    state = run(state, [play(1, "AS"), play(2, "9H")])
    state = run(state, [low_play(state), play(4, "JH")])
    assert state.turn == 4


# --- D3 -----------------------------------------------------------------------

# Hokum in hearts (P1 takes the face-up QH). P2 and P3 have no spade.
VOIDS = {
    1: "AS KS AD KD AC KC QS QH",
    2: "JH 9H 8H TD QD JD TC QC",
    3: "TH 7H 9D 8D 7D 9C 8C 7C",
    4: "JS TS 9S 8S 7S AH KH JC",
}


def _voids() -> Deal:
    return deal(4, VOIDS, "QH", 1)


def test_d3_hokum_must_trump_when_void() -> None:
    """D3: cannot follow but holds a trump: must trump."""
    d = _voids()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + [play(1, "AS")])
    assert legal_plays(state) == {"JH", "9H", "8H"}
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, play(2, "TD"))


def test_d3_no_obligation_to_over_trump() -> None:
    """D3: no obligation to over-trump: after P2's trump 8, P3 may trump
    with the 7 (under) as well as the T."""
    d = _voids()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + [play(1, "AS"), play(2, "8H")])
    assert legal_plays(state) == {"TH", "7H"}
    state = rules.apply(state, play(3, "7H"))
    # P4 holds spades: it must follow spades, trumps in hand or not.
    assert legal_plays(state) == {"JS", "TS", "9S", "8S", "7S"}


def test_d3_follow_suit_before_trumping() -> None:
    """D3: follow the led suit if you can, even when holding trumps."""
    d = _voids()
    state = run(
        start(d),
        hokum_by_p1(d) + no_declarations(4) + [play(1, "AS"), play(2, "8H"), play(3, "7H")],
    )
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, play(4, "AH"))


def test_d3_trump_led_any_trump_may_follow() -> None:
    """D3: when trump is led, any trump follows; no obligation to beat the trick."""
    d = _voids()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + [play(1, "QH")])
    assert legal_plays(state) == {"JH", "9H", "8H"}
    state = rules.apply(state, play(2, "8H"))
    assert legal_plays(state) == {"TH", "7H"}


def test_d3_must_trump_even_when_partner_wins() -> None:
    """D3: the obligation to trump has no exception for a partner's winning trick."""
    d = _voids()
    actions = hokum_by_p1(d) + no_declarations(4)
    # Trick 1: AS 8H 7H 7S, P2's trump wins; P2 leads TD, P3 follows 7D,
    # P4 (partner of P2, winning with nothing yet) has no diamond.
    actions += [play(1, "AS"), play(2, "8H"), play(3, "7H"), play(4, "7S")]
    actions += [play(2, "TD"), play(3, "7D")]
    state = run(start(d), actions)
    assert state.turn == 4
    assert legal_plays(state) == {"AH", "KH"}


def test_d3_neither_suit_nor_trump_plays_anything() -> None:
    """D3: holding neither the led suit nor a trump, any card may be played."""
    d = fill_deal(4, {1: "AS 8H"}, "8H", 1, void={2: "SH"})
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + [play(1, "AS")])
    assert legal_plays(state) == set(d.hands[2])


def test_d3_sun_follow_or_anything() -> None:
    """D3: in Sun follow the led suit; void, play anything."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4) + [play(1, "AS")])
    assert legal_plays(state) == {"TS", "8S"}
    d2 = fill_deal(4, {1: "AS"}, "AS", 1, void={2: "S"})
    state = run(start(d2), sun_by_p1(d2) + no_declarations(4) + [play(1, "AS")])
    assert legal_plays(state) == set(d2.hands[2])


# --- D4 -----------------------------------------------------------------------


def test_d4_lock_forbids_leading_trump_with_non_trumps_in_hand() -> None:
    """D4: in Lock mode a player on lead holding any non-trump may not lead a
    trump. P2 doubles locked; P1 holds KS QS and six non-trumps."""
    d = hokum_blocks()
    calls = [call(2, "double", True), call(3, "pass"), call(1, "pass")]
    state = run(start(d), hokum_by_p1(d, *calls) + no_declarations(4))
    assert legal_plays(state) == {"AH", "7H", "AD", "7D", "AC", "7C"}
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, play(1, "KS"))


def test_d4_lock_allows_trump_lead_with_only_trumps() -> None:
    """D4: a leader holding only trumps may lead one. After six plain
    tricks of HOKUM_84_78 P4 leads holding AS TS only; the deal ends doubled:
    84/78 -> 8/8, P1/P3 win on the higher exact total and take
    (8 + 8) x 2 = 32, plus 2 for the Baloot announced with QS (D24)."""
    d = hokum_blocks()
    calls = [call(2, "double", True), call(3, "pass"), call(1, "pass")]
    state = run(start(d), hokum_by_p1(d, *calls) + no_declarations(4) + plays(d, HOKUM_84_78[:6]))
    assert state.turn == 4
    assert legal_plays(state) == {"AS", "TS"}
    state = run(state, plays(d, HOKUM_84_78[6:], baloot={"QS"}))
    result = last(state)
    assert result["contract"]["lock"] is True
    assert result["contract"]["multiplier"] == 2
    assert result["points"] == {"A": 34, "B": 0}


def test_d4_open_game_allows_trump_lead() -> None:
    """D4 applies only in Lock mode: undoubled, P1 may lead KS (with or
    without announcing Baloot)."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    assert legal_plays(state) == {"AH", "7H", "AD", "7D", "AC", "7C", "KS", "QS"}
