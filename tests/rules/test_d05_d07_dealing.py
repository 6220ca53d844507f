"""Dealing: rules-decisions.md D5 (3+2 deal, face-up card, top-up, exact
order of notation.md), D6 (dealer rotation) and D7 (zero-point redeal)."""

from __future__ import annotations

import pytest

import games.rules as rules

from .deals import SUN_66_64, hokum_blocks, hokum_by_p1, sun_blocks, sun_by_p1
from .scenarios import (
    ALL_CARDS,
    Deal,
    bid,
    deal,
    dealt_hands,
    document,
    frozen,
    hand,
    last,
    legal,
    make_deck,
    no_declarations,
    plays,
    redeal,
    replay,
    run,
    start,
)

# --- D5 -----------------------------------------------------------------------


def test_d5_deck_from_hands_follows_the_notation_deal_order() -> None:
    """D5 / notation.md "Dealing from deck": cards 0-11 three to each seat
    from the seat after the dealer, 12-19 two each, 20 face up, 21-31 three
    each but two to the taker. Checked against the API's deck_from_hands."""
    hands = {
        2: ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"],
        3: ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"],
        4: ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"],
        1: ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"],
    }
    # Dealer 1: seat 2 deals first; seat 3 (P2) takes the face-up 7H.
    deck = rules.deck_from_hands(1, hands, "7H", 3)
    assert deck == [
        *["AS", "KS", "QS"],
        *["AH", "KH", "QH"],
        *["AD", "KD", "QD"],
        *["AC", "KC", "QC"],
        *["JS", "TS"],
        *["JH", "TH"],
        *["JD", "TD"],
        *["JC", "TC"],
        "7H",
        *["9S", "8S", "7S"],
        *["9H", "8H"],
        *["9D", "8D", "7D"],
        *["9C", "8C", "7C"],
    ]
    assert dealt_hands(1, deck, 3) == {
        2: hands[2],
        3: ["AH", "KH", "QH", "JH", "TH", "7H", "9H", "8H"],
        4: hands[4],
        1: hands[1],
    }
    first = {s: h[:5] for s, h in hands.items()}
    first[3] = ["AH", "KH", "QH", "JH", "TH"]
    rest = {s: h[5:] for s, h in hands.items()}
    rest[3] = ["9H", "8H"]
    assert make_deck(1, first, "7H", rest, 3) == deck


def test_d5_five_cards_then_face_up_then_top_up_to_eight() -> None:
    """D5 (seeds: 3+2 then 1 face-up card; after the contract the taker gets
    it plus 2 cards, the others 3): hands before and after Sun by P1."""
    d = sun_blocks()
    state = start(d)
    view = rules.view_for(state, None)
    assert view["faceup"] == "9H"
    assert hand(state, 1) == {"AS", "9S", "QD", "7D", "TC"}
    assert hand(state, 2) == {"TS", "8S", "AD", "JD", "QC"}
    assert hand(state, 3) == {"KS", "7S", "KD", "9D", "KC"}
    assert hand(state, 4) == {"QS", "JS", "TD", "8D", "AC"}
    state = run(state, sun_by_p1(d))
    assert hand(state, 1) == {"AS", "9S", "QD", "7D", "TC", "9C", "AH", "9H"}
    assert hand(state, 2) == {"TS", "8S", "AD", "JD", "QC", "8C", "TH", "8H"}
    assert hand(state, 3) == {"KS", "7S", "KD", "9D", "KC", "7C", "KH", "7H"}
    assert hand(state, 4) == {"QS", "JS", "TD", "8D", "AC", "JC", "QH", "JH"}


def test_d5_top_up_follows_the_taker() -> None:
    """D5: the remaining cards go out in seat order, three each but two to
    whoever took the face-up card (here P2 by Sun), from the same deck."""
    d = sun_blocks()
    state = run(start(d), [bid(1, "pass"), bid(2, "sun")])
    expected = dealt_hands(4, d.deck, 2)
    for seat in (1, 2, 3, 4):
        assert hand(state, seat) == set(expected[seat])
    # Cards 21-23 (9C AH 8C) go to P1, 24-25 (TH 8H) to P2.
    assert hand(state, 1) == {"AS", "9S", "QD", "7D", "TC", "9C", "AH", "8C"}
    assert hand(state, 2) == {"TS", "8S", "AD", "JD", "QC", "9H", "TH", "8H"}


def test_d5_declarations_are_made_with_eight_cards() -> None:
    """D5: the rest is dealt as soon as the contract is settled, so
    declarations use all eight cards: P3's fourth king (KH) is a top-up card
    and the four kings can be declared."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4)[:2])
    assert state.turn == 3
    assert legal(state) == frozen(
        [
            {"seat": 3, "declare": []},
            {"seat": 3, "declare": [{"project": "hundred", "cards": ["KS", "KD", "KC", "KH"]}]},
        ]
    )


def test_d5_doubling_is_decided_with_eight_cards() -> None:
    """D5: in the doubling phase every hand already holds eight cards."""
    d = sun_blocks()
    state = run(start(d), [bid(1, "hokum"), bid(2, "pass"), bid(3, "pass"), bid(4, "pass")])
    state = rules.apply(state, bid(1, "confirm"))
    assert state.phase == rules.Phase.DOUBLING
    assert rules.view_for(state, None)["hand_counts"] == {"1": 8, "2": 8, "3": 8, "4": 8}


# --- D6 -----------------------------------------------------------------------


def test_d6_dealer_moves_to_the_next_seat_after_a_played_deal() -> None:
    """D6: after every deal the dealer moves to the previous dealer's right
    (seat s % 4 + 1)."""
    d = sun_blocks(dealer=4)
    state = run(start(d), sun_by_p1(d) + no_declarations(4) + plays(d, SUN_66_64))
    assert state.phase == rules.Phase.ROUND_OVER
    assert state.next_dealer == 1
    d2 = sun_blocks(dealer=1)
    state = run(start(d2, state=state), sun_by_p1(d2) + no_declarations(1) + plays(d2, SUN_66_64))
    assert state.next_dealer == 2
    assert last(state)["dealer"] == 1


def test_d6_dealer_moves_after_all_pass_twice() -> None:
    """D6: the dealer moves on also after all four pass twice."""
    d = sun_blocks(dealer=2)
    passes = [bid(s, "pass") for s in (3, 4, 1, 2)] * 2
    state = run(start(d), passes)
    assert state.phase == rules.Phase.ROUND_OVER
    assert state.next_dealer == 3
    assert last(state)["outcome"] == "all_passed"


def test_d6_notation_rejects_a_wrong_next_dealer() -> None:
    """D6 / notation.md: each later round's dealer must follow the rotation;
    a wrong dealer is a round-level fault, action 0."""
    d = sun_blocks(dealer=4)
    first = (d, sun_by_p1(d) + no_declarations(4) + plays(d, SUN_66_64))
    wrong = sun_blocks(dealer=2)
    with pytest.raises(rules.NotationError) as caught:
        replay(document("classic", [first, (wrong, [bid(3, "pass")])]), allow_unfinished=True)
    assert (caught.value.round, caught.value.action) == (2, 0)


# --- D7 -----------------------------------------------------------------------

# P2's and P3's first five cards are all 7, 8 or 9; P1's and P4's are not.
# If the bidding goes on, P4 takes the face-up QC.
ZERO = {
    1: "AS TS KS QS JS 9S 8S JC",
    2: "7H 8H 9H 7D 8D AH TH KH",
    3: "9D 7C 8C 9C 7S QH JH AD",
    4: "TD KD QD JD AC TC KC QC",
}


def _zero() -> Deal:
    return deal(4, ZERO, "QC", 4)


def test_d7_zero_point_hand_may_ask_for_a_redeal_at_its_first_turn() -> None:
    """D7 (Chinese seed): a player whose first five cards are all 7, 8 or 9
    may ask for a redeal at their first turn of the first bidding round."""
    state = run(start(_zero()), [bid(1, "pass")])
    assert legal(state) == frozen(
        [
            {"seat": 2, "bid": "pass"},
            {"seat": 2, "bid": "sun"},
            {"seat": 2, "bid": "hokum"},
            {"seat": 2, "redeal": True},
        ]
    )


def test_d7_redeal_voids_the_deal_and_the_same_dealer_deals_again() -> None:
    """D7: the deal is void, no points are scored and the same dealer deals again."""
    state = run(start(_zero()), [bid(1, "pass"), redeal(2)])
    assert state.phase == rules.Phase.ROUND_OVER
    assert state.next_dealer == 4
    assert state.score == {"A": 0, "B": 0}
    assert last(state) == {
        "dealer": 4,
        "outcome": "redeal",
        "contract": None,
        "card_points": {"A": 0, "B": 0},
        "projects": {"A": [], "B": []},
        "baloot": {"A": 0, "B": 0},
        "points": {"A": 0, "B": 0},
        "score": {"A": 0, "B": 0},
    }


def test_d7_redeal_notation_requires_the_same_dealer_next() -> None:
    """D7 / notation.md: after a redeal the next round has the same dealer;
    the rotated dealer is a round-level error (action 0)."""
    z = _zero()
    again = sun_blocks(dealer=4)
    doc = document("classic", [(z, [bid(1, "pass"), redeal(2)]), (again, [bid(1, "pass")])])
    state = replay(doc, allow_unfinished=True)
    assert state.phase == rules.Phase.BIDDING
    assert state.dealer == 4
    rotated = sun_blocks(dealer=1)
    doc = document("classic", [(z, [bid(1, "pass"), redeal(2)]), (rotated, [bid(2, "pass")])])
    with pytest.raises(rules.NotationError) as caught:
        replay(doc, allow_unfinished=True)
    assert (caught.value.round, caught.value.action) == (2, 0)


def test_d7_redeal_allowed_when_the_first_turn_is_a_reply_to_hokum() -> None:
    """D7: "whatever that turn is, a reply to a Hokum included"."""
    state = run(start(_zero()), [bid(1, "hokum")])
    assert legal(state) == frozen(
        [{"seat": 2, "bid": "pass"}, {"seat": 2, "bid": "sun"}, {"seat": 2, "redeal": True}]
    )
    state = rules.apply(state, redeal(2))
    assert last(state)["outcome"] == "redeal"


def test_d7_acting_otherwise_is_continue_and_forfeits_the_redeal() -> None:
    """D7: acting otherwise is that seat's "continue": it cannot ask later in
    that deal; another zero-point seat still may, at its own first turn."""
    state = run(start(_zero()), [bid(1, "pass"), bid(2, "pass")])
    # P3, also zero-point, still may at its own first turn.
    assert frozen([{"seat": 3, "redeal": True}]) <= legal(state)
    state = run(state, [bid(3, "pass"), bid(4, "hokum")])
    # Replies to P4's Hokum: P1, then P2 and P3, who have both continued.
    assert legal(state) == frozen([{"seat": 1, "bid": "pass"}, {"seat": 1, "bid": "sun"}])
    state = rules.apply(state, bid(1, "pass"))
    assert legal(state) == frozen([{"seat": 2, "bid": "pass"}, {"seat": 2, "bid": "sun"}])
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, redeal(2))
    state = rules.apply(state, bid(2, "pass"))
    assert legal(state) == frozen(
        [{"seat": 3, "bid": "pass"}, {"seat": 3, "bid": "sun"}, {"seat": 3, "bid": "ashkal"}]
    )


def test_d7_no_redeal_in_the_second_bidding_round() -> None:
    """D7: only at the seat's first turn of the first bidding round."""
    state = run(start(_zero()), [bid(s, "pass") for s in (1, 2, 3, 4)] + [bid(1, "pass")])
    assert frozen([{"seat": 2, "redeal": True}]).isdisjoint(legal(state))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, redeal(2))


def test_d7_only_a_zero_point_hand_may_ask() -> None:
    """D7: P1's first five (AS TS KS QS JS) are not all 7, 8 or 9."""
    state = start(_zero())
    assert frozen([{"seat": 1, "redeal": True}]).isdisjoint(legal(state))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, redeal(1))


def test_d7_a_forced_action_never_asks_for_a_redeal() -> None:
    """D7 / D17: a forced (timer) action never asks for a redeal: it passes."""
    state = run(start(_zero()), [bid(1, "pass")])
    assert rules.forced_action(state) == {"seat": 2, "bid": "pass", "auto": True}


def test_d7_redeal_shows_the_hand_to_everyone() -> None:
    """D7: the redealing seat's hand is shown to everyone."""
    state = run(start(_zero()), [bid(1, "pass"), redeal(2)])
    shown = rules.view_for(state, 4)["redeal"]
    assert shown == {"seat": 2, "cards": ["7H", "8H", "9H", "7D", "8D"]}


def cards_in(value: object) -> set[str]:
    """Every card string anywhere in a JSON value."""
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) and value in ALL_CARDS else set()


def test_d5_a_seat_sees_its_own_cards_and_the_face_up_card_only() -> None:
    """D5 (the deal is face down): before any card is played, a seat's view
    holds no other seat's card, and a spectator's none but the face-up card,
    before and after the top-up."""
    d = hokum_blocks()
    state = start(d)
    for actions in ([], hokum_by_p1(d)[:5]):
        state = run(state, actions)
        for seat in (1, 2, 3, 4):
            assert cards_in(rules.view_for(state, seat)) <= hand(state, seat) | {"KS"}
        assert cards_in(rules.view_for(state, None)) <= {"KS"}
