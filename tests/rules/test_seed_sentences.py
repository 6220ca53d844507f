"""One test per rule sentence of the English seed
(shared/seeds/000_12c3e77b29ca552d.txt) that the engine can check; each
docstring quotes its sentence. Sentences about buttons and clicking only are
left out (nothing in the rules engine to check).

The seed is quoted verbatim, typographic dashes and quotes included.
"""
# ruff: noqa: RUF002

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import games.rules as rules

from .deals import (
    HOKUM_70_92,
    HOKUM_84_78,
    HOKUM_92_70,
    SUN_55_75,
    SUN_66_64,
    b_sweeps_sun,
    hokum_blocks,
    hokum_by_p1,
    sun_blocks,
    sun_by_p1,
    sweep_deal,
)
from .scenarios import (
    ALL_CARDS,
    Action,
    Deal,
    bid,
    call,
    dealt_hands,
    declarations,
    declare,
    fill_deal,
    frozen,
    hand,
    last,
    legal,
    legal_plays,
    low_play,
    no_declarations,
    play,
    plays,
    run,
    sawa,
    start,
    sweep_tricks,
)

FIFTY = ("fifty", "7S 8S 9S TS")


def quick_b_at_106() -> Any:
    """Quick mode after B's Sun sweep with a Fifty: A 52, B 106."""
    d, actions = b_sweeps_sun(FIFTY)
    state = run(start(d, mode="quick"), actions)
    assert state.score == {"A": 52, "B": 106}
    return state


def contract(state: Any) -> dict[str, Any]:
    settled: dict[str, Any] = rules.view_for(state, None)["contract"]
    return settled


def hokum_sweep_round(dealer: int) -> tuple[Deal, list[Action]]:
    d = sweep_deal(dealer)
    return d, hokum_by_p1(d) + no_declarations(dealer) + plays(d, sweep_tricks(d))


# --- Game introduction ----------------------------------------------------------


def test_initial_score_classic_0_quick_52() -> None:
    """ "The initial score is 0 in Classic Mode and 52 in Quick Mode." """
    assert rules.new_match(mode="classic", dealer=1).score == {"A": 0, "B": 0}
    assert rules.new_match(mode="quick", dealer=1).score == {"A": 52, "B": 52}


def test_thirty_two_card_deck() -> None:
    """ "A 32-card deck is used (cards 7, 8, 9, 10, J, Q, K, A of the four suits)." """
    for seed in range(5):
        assert sorted(rules.random_deck(random.Random(seed))) == sorted(ALL_CARDS)
    deck = list(sun_blocks().deck)
    deck[0] = "6S"
    with pytest.raises(rules.InvalidDeck):
        rules.start_deal(rules.new_match(dealer=4), deck)


def test_two_teams_of_two() -> None:
    """ "It is a multiplayer card battle game played in 2 teams (2v2)." """
    assert [rules.team_of(s) for s in (1, 2, 3, 4)] == ["A", "B", "A", "B"]


def test_four_cyclic_phases() -> None:
    """ "The game consists of four cyclic phases: dealing, bidding, playing, and scoring." """
    d = sun_blocks(4)
    state = rules.new_match(dealer=4)
    seen = [state.phase]
    state = start(d, state=state)
    seen.append(state.phase)
    state = run(state, sun_by_p1(d) + no_declarations(4))
    seen.append(state.phase)
    state = run(state, plays(d, SUN_66_64))
    seen.append(state.phase)
    state = start(sun_blocks(1), state=state)
    seen.append(state.phase)
    assert [p.value for p in seen] == ["dealing", "bidding", "playing", "round_over", "bidding"]


def test_goal_first_to_152() -> None:
    """ "The goal is to strategically bid, play cards reasonably, and declare
    card combinations to make your team the first to reach 152 points." """
    state = None
    for dealer in (4, 1, 2):
        d = sweep_deal(dealer)
        calls = [call(d.seat(2), "pass"), call(d.seat(4), "pass")] if dealer != 4 else []
        decl = declarations(dealer, {d.seat(1): [("hundred", "TS JS QS KS AS")]})
        state = run(start(d, mode="quick", state=state), sun_by_p1(d) + calls + decl)
        state = run(state, plays(d, sweep_tricks(d)))
    assert state is not None
    assert state.score == {"A": 180, "B": 116}
    assert state.winner == "A"


def test_gahwa_winner_gets_152_and_wins() -> None:
    """ "In Gahwa Mode, the winning team of the round directly gets 152 points
    and wins the game." """
    d = hokum_blocks()
    calls = (call(2, "double", False), call(3, "triple", False), call(4, "four", False))
    state = run(start(d), hokum_by_p1(d, *calls, call(1, "gahwa")) + no_declarations(4))
    state = run(state, plays(d, HOKUM_92_70))
    assert last(state)["points"] == {"A": 152, "B": 0}
    assert state.winner == "A"


def test_no_time_limit_game_lasts_until_a_winner() -> None:
    """ "There is no time limit for the game, which lasts until a winner is determined." """
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4) + plays(d, SUN_66_64))
    assert state.winner is None
    assert state.phase == rules.Phase.ROUND_OVER
    assert start(sun_blocks(1), state=state).phase == rules.Phase.BIDDING


# --- Card dealing ---------------------------------------------------------------


@pytest.mark.parametrize("dealer", [1, 2, 3, 4])
def test_any_seat_may_be_the_first_dealer(dealer: int) -> None:
    """ "At the start of the game, one player is randomly designated as the dealer." """
    state = rules.new_match(dealer=dealer)
    assert state.next_dealer == dealer
    state = start(sun_blocks(dealer), state=state)
    assert state.dealer == dealer


def test_everything_starts_right_of_the_dealer_dealer_last() -> None:
    """ "Card dealing, bidding, and playing all start from the player to the
    right of the dealer and proceed counterclockwise (the dealer acts last)." """
    d = sun_blocks(3)
    state = start(d)
    assert hand(state, 4) == set(d.deck[0:3]) | set(d.deck[12:14])
    order = []
    for _ in range(4):
        order.append(state.turn)
        state = rules.apply(state, bid(state.turn, "pass"))
    assert order == [4, 1, 2, 3]
    state = run(state, [bid(4, "sun"), *no_declarations(3)])
    assert state.turn == 4


def test_player_4_is_the_dealer() -> None:
    """ "Players are numbered 1–4 in order (Player 4 is the dealer)." Ashkal
    (Players 3-4) is offered to the dealer (seat 2) and the seat before it."""
    state = run(start(sun_blocks(2)), [bid(3, "pass"), bid(4, "pass")])
    assert frozen([{"seat": 1, "bid": "ashkal"}]) <= legal(state)
    state = rules.apply(state, bid(1, "pass"))
    assert frozen([{"seat": 2, "bid": "ashkal"}]) <= legal(state)


def test_three_plus_two_deal() -> None:
    """ "The 3+2 dealing method is adopted: each player is first dealt 3
    cards, then 2 more cards (5 cards in total)." """
    d = sun_blocks(4)
    state = start(d)
    for i, seat in enumerate((1, 2, 3, 4)):
        expected = set(d.deck[3 * i : 3 * i + 3]) | set(d.deck[12 + 2 * i : 14 + 2 * i])
        assert hand(state, seat) == expected
        assert len(expected) == 5


def test_one_card_flipped_face_up() -> None:
    """ "After that, 1 card is flipped from the deck as the face-down card." """
    d = sun_blocks(4)
    assert rules.view_for(start(d), None)["faceup"] == d.deck[20] == "9H"


def test_taker_gets_two_more_others_three() -> None:
    """ "After the bidding phase determines the game rules, additional cards
    are dealt: the player who gets the face-down card receives 2 more cards,
    while the other players each receive 3 more cards, resulting in each
    player holding 8 cards in hand." """
    d = hokum_blocks(4)
    state = run(start(d), hokum_by_p1(d)[:5])
    for seat in (1, 2, 3, 4):
        assert hand(state, seat) == set(d.hands[seat])
        assert len(hand(state, seat)) == 8


def test_dealer_passes_to_the_right() -> None:
    """ "After a round ends, the dealer position is passed to the player to the
    right of the previous dealer." """
    d, actions = hokum_sweep_round(2)
    state = run(start(d), actions)
    assert state.next_dealer == 3


# --- Bidding --------------------------------------------------------------------


def test_bidding_has_two_rounds() -> None:
    """ "After each player is dealt 5 cards and the face-down card is revealed,
    the bidding phase begins, which consists of two rounds." """
    state = start(sun_blocks())
    assert state.phase == rules.Phase.BIDDING
    assert rules.view_for(state, None)["bid_round"] == 1
    state = run(state, [bid(s, "pass") for s in (1, 2, 3, 4)])
    assert rules.view_for(state, None)["bid_round"] == 2
    state = run(state, [bid(s, "pass") for s in (1, 2, 3, 4)])
    assert state.phase == rules.Phase.ROUND_OVER


def test_bidding_timer_passes() -> None:
    """ "Each player has 8 seconds to make a selection; if the time limit is
    exceeded, the player automatically passes." """
    state = start(sun_blocks())
    for _ in range(8):
        forced = rules.forced_action(state)
        assert forced == {"seat": state.turn, "bid": "pass", "auto": True}
        state = rules.apply(state, forced)
    assert last(state)["outcome"] == "all_passed"


def test_selection_rights() -> None:
    """ "Selection Rights: Players 1–2 can choose Sun/Hokum/Pass, while Players
    3–4 have the additional option to choose Ashkal." """
    state = start(sun_blocks())
    for seat, extra in ((1, []), (2, []), (3, ["ashkal"]), (4, ["ashkal"])):
        options = ["pass", "sun", "hokum", *extra]
        assert legal(state) == frozen([{"seat": seat, "bid": b} for b in options])
        state = rules.apply(state, bid(seat, "pass"))


def test_second_round_sun_or_ashkal_disables_doubling() -> None:
    """ "In the second round of bidding, the Hokum button is changed to Second
    Hokum, and choosing Sun/Ashkal will disable the doubling option." With B
    at 106, a first-round Sun by A could be doubled; in round 2 it cannot."""
    d = sun_blocks(2)
    passes = [bid(s, "pass") for s in (3, 4, 1, 2)]
    state = run(start(d, state=quick_b_at_106()), [*passes, bid(3, "sun")])
    assert state.phase == rules.Phase.DECLARING
    state = run(start(d, state=quick_b_at_106()), [*passes, bid(3, "pass"), bid(4, "pass")])
    state = run(state, [bid(1, "ashkal"), bid(4, "pass")])
    assert contract(state)["type"] == "ashkal"
    assert state.phase == rules.Phase.DECLARING


def test_sun_ends_bidding_immediately() -> None:
    """ "Choosing Sun: The bidding phase ends immediately." """
    state = rules.apply(start(sun_blocks()), bid(1, "sun"))
    assert state.phase == rules.Phase.DECLARING


def test_sun_bidder_gets_the_face_up_card() -> None:
    """ "The player who chooses Sun gets the face-down card and 2 additional
    cards, while other players receive 3 additional cards each, and the game
    starts under Sun rules." """
    d = sun_blocks()
    state = run(start(d), [bid(1, "pass"), bid(2, "sun")])
    expected = dealt_hands(4, d.deck, 2)
    assert all(hand(state, s) == set(expected[s]) for s in (1, 2, 3, 4))
    assert "9H" in hand(state, 2)
    assert contract(state)["type"] == "sun"


def test_first_round_sun_can_be_doubled_over_100() -> None:
    """ "Selecting Sun in the first round can trigger doubling (only when the
    opposing team’s score exceeds 100 points)." """
    state = run(start(sun_blocks(2), state=quick_b_at_106()), [bid(3, "sun")])
    assert state.phase == rules.Phase.DOUBLING
    state = run(start(sun_blocks(), mode="quick"), [bid(1, "sun")])
    assert state.phase == rules.Phase.DECLARING


def test_opposing_players_take_turns_double_or_pass() -> None:
    """ "The two players of the opposing team take turns to choose Double/Pass." """
    state = run(start(sun_blocks(2), state=quick_b_at_106()), [bid(3, "sun")])
    assert legal(state) == frozen([{"seat": 4, "double": "double"}, {"seat": 4, "double": "pass"}])
    state = rules.apply(state, call(4, "pass"))
    assert legal(state) == frozen([{"seat": 2, "double": "double"}, {"seat": 2, "double": "pass"}])


def test_either_double_multiplies_by_two() -> None:
    """ "If either player chooses Double, the score of this round is multiplied
    by 2." SUN_66_64: (14 + 12) x 2 = 52 to the winning bidders."""
    d = sun_blocks(2)
    state = run(start(d, state=quick_b_at_106()), [bid(3, "sun"), call(4, "double")])
    state = run(state, no_declarations(2) + plays(d, SUN_66_64))
    assert last(state)["contract"]["multiplier"] == 2
    assert last(state)["points"] == {"A": 52, "B": 0}


def test_ashkal_left_player_chooses_sun_or_pass() -> None:
    """ "Choosing Ashkal (only available to Players 3–4): The player on the
    left of the Ashkal bidder must choose Sun/Pass." """
    state = run(start(sun_blocks()), [bid(1, "pass"), bid(2, "pass"), bid(3, "ashkal")])
    assert legal(state) == frozen([{"seat": 2, "bid": "sun"}, {"seat": 2, "bid": "pass"}])


def test_ashkal_answered_with_sun_is_sun() -> None:
    """ "If the left player chooses Sun, the game starts under Sun rules." """
    state = run(start(sun_blocks()), [bid(s, "pass") for s in (1, 2, 3)] + [bid(4, "ashkal")])
    state = rules.apply(state, bid(3, "sun"))
    assert contract(state)["type"] == "sun"
    assert contract(state)["bidder"] == 3


def test_ashkal_passed_gives_the_card_to_the_teammate() -> None:
    """ "If Pass is chosen, the face-down card is given to the Ashkal bidder’s
    teammate, and the game starts under Ashkal rules." """
    state = run(start(sun_blocks()), [bid(1, "pass"), bid(2, "pass"), bid(3, "ashkal")])
    state = rules.apply(state, bid(2, "pass"))
    assert contract(state)["type"] == "ashkal"
    assert "9H" in hand(state, 1)


def test_ashkal_doubling_in_the_first_round() -> None:
    """ "Doubling is available in the first round (same rules as Sun)." """
    d = sun_blocks(2)
    actions = [bid(3, "pass"), bid(4, "pass"), bid(1, "ashkal"), bid(4, "pass")]
    state = run(start(d, state=quick_b_at_106()), actions)
    assert state.phase == rules.Phase.DOUBLING


def test_hokum_replies_start_right_of_the_bidder() -> None:
    """ "Choosing Hokum / Second Hokum: Other players take turns to make
    selections starting from the right of the Hokum bidder." """
    state = run(start(sun_blocks()), [bid(1, "pass"), bid(2, "pass"), bid(3, "hokum")])
    order = []
    for _ in range(3):
        order.append(state.turn)
        state = rules.apply(state, bid(state.turn, "pass"))
    assert order == [4, 1, 2]
    assert state.turn == 3


def test_hokum_replied_with_sun_or_ashkal() -> None:
    """ "If any player chooses Sun/Ashkal, the game proceeds according to the
    corresponding rules." """
    state = run(start(sun_blocks()), [bid(1, "hokum"), bid(2, "sun")])
    assert contract(state)["type"] == "sun"
    state = run(start(sun_blocks()), [bid(1, "hokum"), bid(2, "pass"), bid(3, "ashkal")])
    state = rules.apply(state, bid(2, "pass"))
    assert contract(state)["type"] == "ashkal"


def test_hokum_bidder_chooses_sun_or_confirm() -> None:
    """ "If all players pass, the Hokum bidder can either choose Sun or confirm Hokum." """
    state = run(start(sun_blocks()), [bid(1, "hokum")] + [bid(s, "pass") for s in (2, 3, 4)])
    assert legal(state) == frozen([{"seat": 1, "bid": "sun"}, {"seat": 1, "bid": "confirm"}])


def test_trump_choice_and_escalation_to_gahwa() -> None:
    """ "After confirming Hokum, the suit of the face-down card in the first
    round becomes the trump suit; in the second round, the bidder can select
    the trump suit (excluding the suit of the face-down card), followed by
    the multiplier escalation process (maximum ×4, which can activate Gahwa
    Mode)." """
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d)[:5])
    assert contract(state)["trump"] == "S"
    actions = [bid(s, "pass") for s in (1, 2, 3, 4)]
    actions += [bid(1, "hokum"), bid(2, "pass"), bid(3, "pass"), bid(4, "pass")]
    state = run(start(d), actions)
    assert {a.get("trump") for a in rules.legal_actions(state)} == {None, "H", "D", "C"}
    state = rules.apply(state, bid(1, "confirm", "C"))
    assert contract(state)["trump"] == "C"
    state = run(state, [call(2, "double", False), call(3, "triple", False), call(4, "four", False)])
    assert legal(state) == frozen([{"seat": 1, "double": "gahwa"}, {"seat": 1, "double": "pass"}])


def test_all_pass_first_round_goes_to_second() -> None:
    """ "Handling All Passes: If all players pass in the first round, the game
    proceeds to the second round." """
    state = run(start(sun_blocks()), [bid(s, "pass") for s in (1, 2, 3, 4)])
    assert state.phase == rules.Phase.BIDDING
    assert state.turn == 1


def test_all_pass_twice_new_deal_by_the_next_dealer() -> None:
    """ "If all players pass again in the second round, the current round ends,
    the dealer position is rotated, and a new round of dealing begins." """
    state = run(start(sun_blocks()), [bid(s, "pass") for s in (1, 2, 3, 4)] * 2)
    assert state.phase == rules.Phase.ROUND_OVER
    assert state.next_dealer == 1
    assert start(sun_blocks(1), state=state).turn == 2


# --- Card playing ---------------------------------------------------------------


def test_right_of_dealer_leads_the_first_trick() -> None:
    """ "Playing Order: After bidding and multiplier are determined, the player
    to the right of the dealer leads the first trick." (P3 bought the Hokum;
    P1 still leads.)"""
    state = run(start(sun_blocks()), [bid(1, "pass"), bid(2, "pass"), bid(3, "hokum")])
    state = run(state, [bid(4, "pass"), bid(1, "pass"), bid(2, "pass"), bid(3, "confirm")])
    state = run(state, [call(4, "pass"), call(2, "pass"), *no_declarations(4)])
    assert state.phase == rules.Phase.PLAYING
    assert state.turn == 1


def test_trick_winner_leads_next() -> None:
    """ "The winner of each trick becomes the leader of the next trick." """
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    leaders = []
    for trick in SUN_66_64:
        leaders.append(state.turn)
        state = run(state, plays(d, [trick]))
    assert leaders == [1, 1, 2, 2, 4, 4, 4, 4]


def test_sun_led_suit_has_priority() -> None:
    """ "Sun/ Ashkal Mode: The suit of the leading card has the highest priority."
    P1 leads 7S, P2 (no spade) plays AH, P3 follows 8S: P3 wins."""
    d = fill_deal(4, {1: "7S", 2: "AH", 3: "8S"}, "7S", 1, void={2: "S", 4: "S"})
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    state = run(state, [play(1, "7S"), play(2, "AH"), play(3, "8S")])
    state = run(state, [low_play(state)])
    assert state.turn == 3


def test_sun_follow_suit_else_anything() -> None:
    """ "Players following must play a card of the same suit first; if they
    have no cards of the leading suit, they can play any card." (Sun)"""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4) + [play(1, "AS")])
    assert legal_plays(state) == {"TS", "8S"}
    d2 = fill_deal(4, {1: "AS"}, "AS", 1, void={2: "S"})
    state = run(start(d2), sun_by_p1(d2) + no_declarations(4) + [play(1, "AS")])
    assert legal_plays(state) == set(d2.hands[2])


def test_hokum_trump_over_led_over_others() -> None:
    """ "Hokum Mode: Trump suit > leading suit > other suits." A plain ace of
    another suit loses to the led 7; a trump 7 beats both."""
    d = fill_deal(4, {1: "7S 8H", 2: "AD", 3: "8S", 4: "7H"}, "8H", 1, void={2: "SH", 4: "S"})
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    state = run(state, [play(1, "7S"), play(2, "AD"), play(3, "8S")])
    state = rules.apply(state, play(4, "7H"))
    assert state.turn == 4
    d = fill_deal(4, {1: "7S 8H", 2: "AD", 3: "8S"}, "8H", 1, void={2: "SH", 4: "SH"})
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    state = run(state, [play(1, "7S"), play(2, "AD"), play(3, "8S")])
    state = run(state, [low_play(state)])
    assert state.turn == 3


def test_hokum_follow_then_trump_then_anything() -> None:
    """ "Players following must play a card of the same suit first; if they
    have no cards of the leading suit but hold trump cards, they must play a
    trump card; if they have neither, they can play any card." """
    d = fill_deal(4, {1: "AS 8H", 2: "7H 9H", 4: "KS"}, "8H", 1, void={2: "S", 3: "SH"})
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + [play(1, "AS")])
    assert legal_plays(state) == {c for c in d.hands[2] if c[1] == "H"}
    state = rules.apply(state, play(2, "7H"))
    assert legal_plays(state) == set(d.hands[3])
    state = rules.apply(state, play(3, d.hands[3][0]))
    assert legal_plays(state) == {c for c in d.hands[4] if c[1] == "S"}


def _adjacent_ranks_win(order: str, mode: str) -> None:
    for low, high in itertools.pairwise(order):
        trump = "S" if mode == "trump" else "H"
        fixed = {1: f"{low}S" + ("" if mode != "plain" else " AH"), 2: f"{high}S"}
        faceup = f"{low}S" if mode != "plain" else "AH"
        void = {3: "S", 4: "S"} if mode != "plain" else {3: "SH", 4: "SH"}
        d = fill_deal(4, fixed, faceup, 1, void=void)
        bidding = sun_by_p1(d) if mode == "sun" else hokum_by_p1(d)
        state = run(start(d), bidding + no_declarations(4) + [play(1, f"{low}S")])
        state = rules.apply(state, play(2, f"{high}S"))
        state = run(state, [low_play(state)])
        state = run(state, [low_play(state)])
        assert state.turn == 2, (mode, trump, low, high)


def test_sun_same_suit_order() -> None:
    """ "Sun/ Ashkal Mode: For the same suit, the order from lowest to highest
    is 7 < 8 < 9 < J < Q < K < 10 < A." """
    _adjacent_ranks_win("789JQKTA", "sun")


def test_sun_different_suits_led_suit_highest() -> None:
    """ "For different suits, the leading suit is the highest." Every other
    suit's ace loses to the led 7 of spades."""
    d = sweep_deal()
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    state = run(state, [play(1, "7S"), play(2, "AH"), play(3, "AD"), play(4, "AC")])
    assert state.turn == 1


def test_hokum_trump_order() -> None:
    """ "Hokum Mode: For trump cards, the order from lowest to highest is
    7 < 8 < Q < K < 10 < A < 9 < J." """
    _adjacent_ranks_win("78QKTA9J", "trump")


def test_hokum_non_trump_order() -> None:
    """ "For non-trump cards, the order is 7 < 8 < 9 < J < Q < K < 10 < A." """
    _adjacent_ranks_win("789JQKTA", "plain")


def test_sawa_button_with_an_unbeatable_hand() -> None:
    """ "Special Function: When the leading player holds an unbeatable hand,
    the SAWA button is triggered." """
    d = sweep_deal()
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    assert frozen([sawa(1)]) <= legal(state)
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    assert frozen([sawa(1)]).isdisjoint(legal(state))


def test_sawa_ends_the_round_leader_takes_the_rest() -> None:
    """ "Clicking this button ends the round immediately; the leading player
    takes all remaining cards and gains the corresponding points." After one
    trick P1 claims: 220 -> 44."""
    d = sweep_deal()
    state = run(start(d), sun_by_p1(d) + no_declarations(4) + plays(d, sweep_tricks(d)[:1]))
    state = rules.apply(state, sawa(1))
    assert state.phase == rules.Phase.ROUND_OVER
    assert last(state)["card_points"] == {"A": 220, "B": 0}
    assert last(state)["points"] == {"A": 44, "B": 0}


def test_lock_mode_no_trump_lead_with_other_suits() -> None:
    """ "In Lock Mode, players cannot lead with a trump card if they hold cards
    of non-trump suits." """
    d = hokum_blocks()
    calls = (call(2, "double", True), call(3, "pass"), call(1, "pass"))
    state = run(start(d), hokum_by_p1(d, *calls) + no_declarations(4))
    assert legal_plays(state) == {"AH", "7H", "AD", "7D", "AC", "7C"}


# --- Declarations ---------------------------------------------------------------


def test_declarations_verified_by_the_system() -> None:
    """ "Declarations must be made at the specified time, and after
    verification by the system, points are awarded according to the rules." """
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4)[:2])
    with pytest.raises(rules.InvalidDeclaration):
        rules.apply(state, declare(3, ("hundred", "KS KD KC 7C")))
    state = run(state, [declare(3, ("hundred", "KS KD KC KH")), declare(4)])
    state = run(state, plays(d, SUN_66_64))
    assert last(state)["projects"]["A"] == [{"seat": 3, "project": "hundred", "value": 100}]


def test_declared_points_enter_the_conversion() -> None:
    """ "The declared points are included in the total score for the final
    score conversion." SUN_55_75 + 100: 155 -> 31, B 75 -> 15."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + declarations(4, {3: [("hundred", "KS KD KC KH")]}))
    state = run(state, plays(d, SUN_55_75))
    assert last(state)["points"] == {"A": 31, "B": 15}


def test_declare_before_the_first_card_only() -> None:
    """ "Declaration Time: Declarations must be completed before the first card
    is played in the round; no late declarations are allowed." """
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d))
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, play(1, "AS"))
    state = run(state, [*no_declarations(4), play(1, "AS")])
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, declare(2))


def test_declaration_counts_are_independent_per_project() -> None:
    """ "The declaration times of different projects are independent of each
    other." A Fifty and a Sira together, and two Hundreds, are both allowed."""
    d = sweep_deal()
    state = run(start(d), sun_by_p1(d))
    assert frozen([declare(1, ("fifty", "7S 8S 9S TS"), ("sira", "QS KS AS"))]) <= legal(state)
    d = fill_deal(4, {1: "KS KH KD KC QS QH QD QC"}, "KS", 1)
    state = run(start(d), sun_by_p1(d))
    assert frozen([declare(1, ("hundred", "KS KH KD KC"), ("hundred", "QS QH QD QC"))]) <= legal(
        state
    )


def test_at_most_twice_and_one_card_one_project() -> None:
    """ "Declaration Limits: A single project can be declared a maximum of 2
    times; the same card cannot be reused for multiple projects." """
    d = sweep_deal()
    state = run(start(d), sun_by_p1(d))
    assert frozen([declare(1, ("sira", "7S 8S 9S"), ("sira", "QS KS AS"))]) <= legal(state)
    with pytest.raises(rules.InvalidDeclaration):
        rules.apply(state, declare(1, ("sira", "7S 8S 9S"), ("fifty", "9S TS JS QS")))


def test_baloot_only_in_hokum() -> None:
    """ "Special Note: The Baloot project is only valid in Hokum Mode." """
    d = sweep_deal()
    state = run(start(d), sun_by_p1(d) + no_declarations(4))
    assert all("baloot" not in a for a in rules.legal_actions(state))
    state = run(start(d), hokum_by_p1(d) + no_declarations(4))
    assert frozen([play(1, "KS", True), play(1, "QS", True)]) <= legal(state)


def test_baloot_must_be_announced_when_playing() -> None:
    """ "To claim Baloot points in the scoring phase, the player must
    immediately announce "Baloot" when playing the K or Q of the trump suit."
    Not announced: no Baloot points (84/78 -> 8 / 8)."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + plays(d, HOKUM_84_78))
    assert last(state)["baloot"] == {"A": 0, "B": 0}
    assert last(state)["points"] == {"A": 8, "B": 8}


# --- Scoring --------------------------------------------------------------------


def test_total_score_composition() -> None:
    """ "Total Score Composition: Total Score = Trick Score + Final Trick Bonus
    + Project Score" SUN_66_64 with P3's Hundred: A 66 + 100 = 166 -> 34
    (nearest ten 170 / 5), B 64 -> 12."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + declarations(4, {3: [("hundred", "KS KD KC KH")]}))
    state = run(state, plays(d, SUN_66_64))
    assert last(state)["card_points"] == {"A": 66, "B": 64}
    assert last(state)["points"] == {"A": 34, "B": 12}


def test_trick_score_is_the_cards_taken() -> None:
    """ "Trick Score: The sum of the point values of all cards taken by the
    team in the round." HOKUM_92_70: A takes JD AD TD KD (27), JC AC TC KC
    (27), QH AH TH KH (28) = 82, + 10 last trick."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + plays(d, HOKUM_92_70))
    assert last(state)["card_points"] == {"A": 92, "B": 70}


def test_final_trick_bonus() -> None:
    """ "Final Trick Bonus: An additional 10 points awarded to the winning team
    of the last trick of the round." SUN_55_75: B's last trick 9H 8H 7H QH is
    3 card points, and B's 75 = 65 in cards + 10."""
    d = sun_blocks()
    state = run(start(d), sun_by_p1(d) + no_declarations(4) + plays(d, SUN_55_75))
    assert last(state)["card_points"] == {"A": 55, "B": 75}


def test_project_score_from_declarations_before_play() -> None:
    """ "Project Score: Points obtained by declaring card pattern projects
    before the start of the round." """
    d = sweep_deal()
    state = run(start(d), sun_by_p1(d) + declarations(4, {1: [("sira", "7S 8S 9S")]}))
    state = run(state, plays(d, sweep_tricks(d)))
    assert last(state)["projects"]["A"] == [{"seat": 1, "project": "sira", "value": 20}]
    assert last(state)["points"] == {"A": 48, "B": 0}


def test_project_score_times_declarations() -> None:
    """ "After the system verifies that the declared pattern is valid and
    superior to the opposing team’s, the base points of the project are
    multiplied by the number of declarations to calculate the final project
    score." Two Siras: 220 + 40 = 260 -> 52."""
    d = sweep_deal()
    siras = [("sira", "7S 8S 9S"), ("sira", "QS KS AS")]
    state = run(start(d), sun_by_p1(d) + declarations(4, {1: siras}))
    state = run(state, plays(d, sweep_tricks(d)))
    assert last(state)["projects"]["A"] == [
        {"seat": 1, "project": "sira", "value": 20},
        {"seat": 1, "project": "sira", "value": 20},
    ]
    assert last(state)["points"] == {"A": 52, "B": 0}


def test_sun_conversion() -> None:
    """ "Sun/Ashkal Mode: Team Score = (Total Score, rounded to the nearest
    integer; no rounding if the units digit is 5) ÷ 5 × Game Multiplier"
    (D22: 65 -> 13, 66 -> 14, 64 -> 12)."""
    assert [rules.convert(t, sun=True) for t in (65, 66, 64, 55, 75, 0, 220)] == [
        13,
        14,
        12,
        11,
        15,
        0,
        44,
    ]


def test_hokum_conversion() -> None:
    """ "Hokum Mode: Team Score = (Total Score, rounded to the nearest integer)
    ÷ 10 × Game Multiplier" (D22: 84 -> 8, 85 -> 9, 86 -> 9)."""
    assert [rules.convert(t, sun=False) for t in (84, 85, 86, 77, 162, 252)] == [
        8,
        9,
        9,
        8,
        16,
        25,
    ]


def test_bidding_team_defeat() -> None:
    """ "Bidding Team Defeat: All points earned by the bidding team in the
    round are transferred to the opposing team, and the bidding team’s score
    for the round is set to 0." HOKUM_70_92: 7 + 9 = 16 to B."""
    d = hokum_blocks()
    state = run(start(d), hokum_by_p1(d) + no_declarations(4) + plays(d, HOKUM_70_92))
    assert last(state)["points"] == {"A": 0, "B": 16}


def test_sweep_bonus() -> None:
    """ "Sweep Bonus: If a team takes all the cards in the round, they receive
    an additional bonus of 90 points." Hokum: 152 + 10 + 90 = 252 -> 25."""
    d, actions = hokum_sweep_round(4)
    state = run(start(d), actions)
    assert last(state)["card_points"] == {"A": 252, "B": 0}
    assert last(state)["points"] == {"A": 25, "B": 0}


def test_gahwa_mode_scoring() -> None:
    """ "Gahwa Mode: The winning team of the round directly gets 152 points and
    wins the game." (Quick mode, A already 52: 52 + 152.)"""
    d = hokum_blocks()
    calls = (call(2, "double", False), call(3, "triple", False), call(4, "four", False))
    state = run(start(d, mode="quick"), hokum_by_p1(d, *calls, call(1, "gahwa")))
    state = run(state, no_declarations(4) + plays(d, HOKUM_92_70))
    assert state.score == {"A": 204, "B": 52}
    assert state.winner == "A"
