"""Hand-built positions: what a sensible player does, the ``easy`` bot does.

Every deal has seat 4 dealing, so seat 1 acts first. Hands list each seat's
eight cards, its first five dealt first; the face-up card is the taker's.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games import rules
from games.bots import choose_action
from tests.bots.deals import act, deal, declare_nothing, play_match

# Sun for seat 1; hearts are spread so that each seat has a choice to make.
SUN_DEAL = {
    1: "JH 7S 8S 9S 7D 8D 9D TC",
    2: "8H KH AH TS JS QS KS AS",
    3: "7H 9H QH TD JD QD KD AD",
    4: "TH 7C 8C 9C JC QC KC AC",
}
# Hokum in spades for seat 1, who holds the trump J and 9.
HOKUM_DEAL = {
    1: "JS 9S AH 7H 7D 8D 7C 7S",
    2: "8S TH KH AD TD 8C 9C TC",
    3: "QS KS 8H 9H JD QD KD AC",
    4: "TS AS JH QH 9D JC QC KC",
}
# Hokum in spades; seats 3 and 4 hold no diamond, seat 4 the trump Q and K.
RUFF_DEAL = {
    1: "JS 9S 7D 8D 7H 9H AH 7C",
    2: "TS 9D TD JD QD KD AD 8C",
    3: "8S 8H TH JH QH KH 9C TC",
    4: "7S QS KS AS JC QC KC AC",
}
# As RUFF_DEAL, but seat 4 ruffs only with the 7 or with the T and A.
COSTLY_RUFF_DEAL = {
    1: "JS 9S 7D 8D 7H 9H AH 7C",
    2: "QS KS 9D TD JD QD KD AD",
    3: "8S 8H TH JH QH KH 9C TC",
    4: "7S TS AS 8C JC QC KC AC",
}
# Projects everywhere: four aces and four tens, four kings and a sira, four
# queens and four jacks, two siras.
PROJECT_DEAL = {
    1: "AH AD AC TS TH TD TC AS",
    2: "KS KH KD KC 7S 8S 9S 7H",
    3: "QS QH QD QC JS JH JD JC",
    4: "8H 9H 7D 8D 9D 7C 8C 9C",
}
# Nobody's Hokum in the face-up clubs; seat 1's hand is a Hokum in hearts.
SECOND_ROUND_DEAL = {
    1: "JH 9H AH 7S 8D 8C 9C 7C",
    2: "7H 8H TH 8S 9S TS 7D 9D",
    3: "QH KH JS QS KS TD JD QD",
    4: "AS KD AD TC JC QC KC AC",
}
# A defender with J, 9, A and T of trump and two side aces.
DOUBLE_DEAL = {
    1: "KS QS AH 7H 7D 8D 7C 8S",
    2: "JS 9S AS TS AD AC 8C 9C",
    3: "7S 8H 9H TH JH 9D TD JD",
    4: "QH KH KD QD TC JC QC KC",
}


def sun(hands: dict[int, str], faceup: str) -> rules.State:
    """Seat 1 bids Sun and nobody declares: seat 1 is on lead."""
    return declare_nothing(act(deal(hands, faceup, taker=1), {"bid": "sun"}))


def hokum(hands: dict[int, str], faceup: str) -> rules.State:
    """Seat 1's Hokum in the face-up suit, unanswered and undoubled, nothing declared."""
    state = act(
        deal(hands, faceup, taker=1),
        {"bid": "hokum"},
        {"bid": "pass"},
        {"bid": "pass"},
        {"bid": "pass"},
        {"bid": "confirm"},
        {"double": "pass"},
        {"double": "pass"},
    )
    return declare_nothing(state)


def plays(state: rules.State, *cards: str) -> rules.State:
    """``state`` after the seats to act play ``cards``."""
    return act(state, *({"play": card} for card in cards))


def bot_move(state: rules.State) -> dict[str, Any]:
    """The easy bot's choice for the seat to act, its seat left out."""
    assert state.turn is not None
    action = choose_action(state, state.turn, level="easy")
    assert action in rules.legal_actions(state)
    return {k: v for k, v in action.items() if k != "seat"}


# --- Following --------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "expected", "why"),
    [
        (["JH"], "KH", "the lowest heart that beats the J, not the A"),
        (["JH", "AH"], "7H", "cannot beat the A: the cheapest heart"),
        (["JH", "8H"], "7H", "partner's J wins and seat 4 still plays: the cheapest heart"),
        (["7S", "AS", "7H"], "TH", "last, partner's A wins: add the T, keep the aces"),
    ],
)
def test_following_in_sun(trick: list[str], expected: str, why: str):
    state = plays(sun(SUN_DEAL, faceup="TC"), *trick)
    assert bot_move(state) == {"play": expected}, why


def test_a_cheap_trump_ruffs_and_announces_baloot():
    # Seat 3 ruffs seat 2's 9D with the 8S; seat 4, void, overtakes with its
    # lowest winning trump, the Q, which it holds with the K: Baloot (D21a).
    state = plays(hokum(RUFF_DEAL, faceup="JS"), "7D", "9D", "8S")
    assert bot_move(state) == {"play": "QS", "baloot": True}


def test_a_worthless_trick_is_not_worth_a_ten_of_trump():
    # Seat 4 must trump (D3) but may under-trump: the T and A stay home.
    state = plays(hokum(COSTLY_RUFF_DEAL, faceup="JS"), "7D", "9D", "8S")
    assert bot_move(state) == {"play": "7S"}


def test_a_trick_with_points_is_worth_the_ten_of_trump():
    # Seat 3 ruffs partner's A: 11 points on the table.
    state = plays(hokum(COSTLY_RUFF_DEAL, faceup="JS"), "7D", "AD", "8S")
    assert bot_move(state) == {"play": "TS"}


# --- Leading ----------------------------------------------------------------


def test_the_hokum_bidder_draws_trumps_with_the_jack():
    assert bot_move(hokum(HOKUM_DEAL, faceup="7S")) == {"play": "JS"}


def test_a_sun_bidder_leads_its_ace():
    assert bot_move(sun(SECOND_ROUND_DEAL, faceup="7C")) == {"play": "AH"}


def test_a_hand_that_wins_every_trick_claims_sawa():
    # Four aces and four tens in Sun win every trick whatever the others do.
    assert bot_move(sun(PROJECT_DEAL, faceup="AS")) == {"sawa": True}


# --- Bidding ----------------------------------------------------------------


def test_trump_j_and_9_with_a_side_ace_bid_hokum():
    assert bot_move(deal(HOKUM_DEAL, "7S", taker=1)) == {"bid": "hokum"}


def test_four_aces_bid_sun():
    assert bot_move(deal(PROJECT_DEAL, "AS", taker=1)) == {"bid": "sun"}


def test_a_weak_hand_passes():
    state = act(deal(PROJECT_DEAL, "AS", taker=1), {"bid": "pass"})
    assert bot_move(state) == {"bid": "pass"}


def test_a_zero_point_hand_asks_for_a_redeal_and_others_never_do():
    state = act(deal(PROJECT_DEAL, "AS", taker=1), *[{"bid": "pass"}] * 3)
    assert bot_move(state) == {"redeal": True}
    assert bot_move(deal(PROJECT_DEAL, "AS", taker=1)) != {"redeal": True}


def test_second_round_hokum_in_the_strongest_suit():
    state = deal(SECOND_ROUND_DEAL, "7C", taker=1)
    assert bot_move(state) == {"bid": "pass"}
    state = act(state, *[{"bid": "pass"}] * 4)
    assert state.bid_round == 2
    assert bot_move(state) == {"bid": "hokum"}
    state = act(state, {"bid": "hokum"}, *[{"bid": "pass"}] * 3)
    assert bot_move(state) == {"bid": "confirm", "trump": "H"}


# --- Doubling and declaring -------------------------------------------------


def _doubling(hands: dict[int, str], faceup: str) -> rules.State:
    """Seat 1's unanswered Hokum, confirmed: seat 2 is asked to double."""
    state = act(
        deal(hands, faceup, taker=1),
        {"bid": "hokum"},
        {"bid": "pass"},
        {"bid": "pass"},
        {"bid": "pass"},
        {"bid": "confirm"},
    )
    assert state.phase is rules.Phase.DOUBLING
    return state


def test_a_weak_defender_does_not_double():
    assert bot_move(_doubling(HOKUM_DEAL, "7S")) == {"double": "pass"}


def test_a_strong_defender_doubles_and_locks():
    state = _doubling(DOUBLE_DEAL, "8S")
    assert bot_move(state) == {"double": "double", "lock": True}
    # The bidder's ordinary hand does not answer with a Triple.
    state = act(state, {"double": "double", "lock": True})
    assert bot_move(state) == {"double": "pass"}


def test_every_seat_declares_all_its_projects():
    state = act(deal(PROJECT_DEAL, "AS", taker=1), {"bid": "sun"})
    expected = {
        1: [("four_hundred", "AS AH AD AC"), ("hundred", "TS TH TD TC")],
        2: [("hundred", "KS KH KD KC"), ("sira", "7S 8S 9S")],
        3: [("hundred", "QS QH QD QC"), ("hundred", "JS JH JD JC")],
        4: [("sira", "7D 8D 9D"), ("sira", "7C 8C 9C")],
    }
    while state.phase is rules.Phase.DECLARING:
        seat = state.turn
        move = bot_move(state)
        declared = sorted((p["project"], sorted(p["cards"])) for p in move["declare"])
        assert declared == sorted((k, sorted(c.split())) for k, c in expected.pop(seat))
        state = act(state, move)
    assert not expected


def test_baloot_is_kept_rather_than_given_up_for_a_sira():
    # Seat 4 holds Q K A of trump (a Sira) and J Q K A of clubs (a Fifty): the
    # trump Sira would cost the certain Baloot (D21a), so only the Fifty goes.
    state = act(_doubling(RUFF_DEAL, "JS"), {"double": "pass"}, {"double": "pass"})
    state = act(state, *[{"declare": []}] * 3)
    assert state.turn == 4
    assert bot_move(state) == {"declare": [{"project": "fifty", "cards": ["JC", "QC", "KC", "AC"]}]}


def test_the_easy_bot_claims_sawa_and_announces_baloot_whenever_it_may():
    seen: Counter[str] = Counter()

    def watching_bot(state: rules.State, seat: int, rng: random.Random) -> dict[str, Any]:
        action = choose_action(state, seat, level="easy")
        legal = rules.legal_actions(state)
        if {"seat": seat, "sawa": True} in legal:
            assert action == {"seat": seat, "sawa": True}
            seen["sawa"] += 1
        elif action.get("baloot"):
            seen["baloot"] += 1
        elif "play" in action and {**action, "baloot": True} in legal:
            raise AssertionError(f"{action} leaves out Baloot")
        return action

    rng = random.Random(26)
    for _ in range(20):
        play_match(rng, dict.fromkeys((1, 2, 3, 4), watching_bot))
    assert seen["sawa"] > 50
    assert seen["baloot"] > 10


def test_the_normal_bot_announces_baloot_before_its_sawa():
    seen: Counter[str] = Counter()

    def watching_bot(state: rules.State, seat: int, rng: random.Random) -> dict[str, Any]:
        action = choose_action(state, seat, level="normal")
        legal = rules.legal_actions(state)
        if {"seat": seat, "sawa": True} in legal:
            if action.get("baloot"):
                seen["baloot before sawa"] += 1
            else:
                assert action == {"seat": seat, "sawa": True}
                seen["sawa"] += 1
        elif "play" in action and not action.get("baloot") and {**action, "baloot": True} in legal:
            raise AssertionError(f"{action} leaves out Baloot")
        return action

    rng = random.Random(26)
    for _ in range(20):
        play_match(rng, dict.fromkeys((1, 2, 3, 4), watching_bot))
    assert seen["sawa"] > 50
    assert seen["baloot before sawa"] > 0
