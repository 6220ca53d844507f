"""The strong bot's Monte Carlo check of its bids, multiplier calls and declarations.

Hand-built positions (seat 4 dealing, so seat 1 bids first) where the
heuristics and the guessed whole deals disagree, plus the guessing of a
whole deal during the bidding, which must deal every card the seat has not
seen, its own three missing cards included, and nothing else.
"""

from __future__ import annotations

import random

from games import rules
from games.bots import choose_action, forecast, inference, policy
from games.bots.bidding import SUN_BID
from games.bots.hand import sun_strength
from games.rules.cards import CARD_OF, cards_of
from games.rules.projects import declaration_options
from tests.bots.deals import act, deal

# Seat 1's first five cards are two aces and three kings: the bold heuristic
# calls that a Sun, but no ten guards an ace and the kings fall to the aces
# out. The face-up 7C gives nothing.
JUNK_SUN = {
    1: "AS AH KS KH KD 7S 8H 7C",
    2: "TS JS QS 8D 9C TC JC QC",
    3: "TH JH QH 9H TD JD QD AD",
    4: "9D 9S 7H 7D 8S 8C KC AC",
}
# Seat 2 takes a Hokum in spades; seat 3 (a defender, asked first) holds the
# trump 9, A and T and the top of every side suit, but not the trump J, so the
# heuristic does not double.
HOPELESS_HOKUM = {
    1: "7H 8H 7D 8D 7C 8C 9C 9D",
    2: "JS 7S 8S QS KS QH KH JD",
    3: "9S AS TS AH TH AD TD AC",
    4: "9H JH QD KD TC JC QC KC",
}


def _strong(state: rules.State) -> dict[str, object]:
    seat = state.turn
    assert seat is not None
    return choose_action(state, seat, level="strong", budget_ms=10**9)


def _heuristic(state: rules.State) -> dict[str, object]:
    assert state.turn is not None
    return policy.heuristic(rules.view_for(state, state.turn), "strong")


def test_a_junk_sun_the_bold_heuristic_would_bid_is_vetoed() -> None:
    state = deal(JUNK_SUN, faceup="7C", taker=1)
    assert _heuristic(state)["bid"] == "sun"
    assert _strong(state) == {"seat": 1, "bid": "pass"}


def test_a_hokum_hopeless_for_its_bidder_is_doubled() -> None:
    state = deal(HOPELESS_HOKUM, faceup="7S", taker=2)
    state = act(state, {"bid": "pass"}, {"bid": "hokum"}, {"bid": "pass"}, {"bid": "pass"})
    state = act(state, {"bid": "pass"}, {"bid": "confirm"})
    assert state.phase is rules.Phase.DOUBLING
    assert state.turn == 3
    assert _heuristic(state)["double"] == "pass"
    choice = _strong(state)
    assert choice["double"] == "double"
    assert choice in rules.legal_actions(state)


def test_a_project_that_cannot_count_is_not_shown() -> None:
    # Seat 1 declares a Hundred; seat 2 holds a Sira only, which can count
    # only if seat 4 beats the Hundred: the heuristic shows it, the check hides it.
    hands = {
        1: "7S 8S 9S TS JS AH KD 9C",
        2: "7H 8H 9H AS 7D 8D 7C QH",
        3: "QS KS TH JH KH 9D TD JC",
        4: "JD QD AD TC QC KC AC 8C",
    }
    state = deal(hands, faceup="9C", taker=1)
    state = act(state, {"bid": "sun"})
    while state.phase is rules.Phase.DOUBLING:
        state = act(state, {"double": "pass"})
    hundred = next(
        a for a in rules.legal_actions(state) if [p["project"] for p in a["declare"]] == ["hundred"]
    )
    state = act(state, {"declare": hundred["declare"]})
    assert state.turn == 2
    assert _heuristic(state)["declare"]
    assert _strong(state) == {"seat": 2, "declare": []}


def test_the_strong_declaration_is_always_legal() -> None:
    rng = random.Random(17)
    checked = 0
    while checked < 12:
        state = rules.start_deal(rules.new_match(dealer=rng.randint(1, 4)), rules.random_deck(rng))
        while state.phase in (rules.Phase.BIDDING, rules.Phase.DOUBLING, rules.Phase.DECLARING):
            if state.phase is rules.Phase.DECLARING and len(rules.legal_actions(state)) > 1:
                assert _strong(state) in rules.legal_actions(state)
                checked += 1
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))


def test_a_guessed_deal_during_the_bidding_deals_exactly_the_unseen_cards() -> None:
    rng = random.Random(5)
    state = rules.start_deal(rules.new_match(dealer=2), rules.random_deck(rng))
    state = act(state, {"bid": "pass"})
    seat = state.turn
    assert seat is not None
    view = rules.view_for(state, seat)
    faceup = view["faceup"]
    mine = sum(1 << CARD_OF[c] for c in view["hand"])
    up = CARD_OF[faceup]
    evidence = forecast.bidding_evidence(inference.read_bids(view, faceup))
    first = 2 % 4 + 1
    differs = False
    for _ in range(30):
        guess = forecast.bidding_deal(seat, view["hand"], faceup, evidence, rng)
        assert guess.five[seat - 1] == mine
        assert all(five.bit_count() == 5 for five in guess.five)
        assert len(guess.rest) == 11
        assert guess.faceup == up
        dealt = [*(c for five in guess.five for c in cards_of(five)), *guess.rest, up]
        assert sorted(dealt) == list(range(32))
        for taker in (1, 2, 3, 4):
            hands = guess.hands(taker, first)
            assert [h.bit_count() for h in hands] == [8, 8, 8, 8]
            assert sum(hands) == (1 << 32) - 1
            assert hands[taker - 1] >> up & 1
            # The seat keeps its five cards and gets three unseen ones, or
            # two and the face-up card when it takes.
            assert hands[seat - 1] & mine == mine
        differs |= any(guess.five[s - 1] != state.dealt[s - 1] for s in (1, 2, 3, 4) if s != seat)
    assert differs


def test_the_bidding_guess_reads_a_pass_on_the_five_cards_it_was_made_with() -> None:
    # A pass in round one says the passer's five cards and the face-up card stay
    # under the Sun threshold: guesses that would have bid Sun lose weight.
    rng = random.Random(8)
    state = deal(JUNK_SUN, faceup="7C", taker=1)
    state = act(state, {"bid": "pass"})
    view = rules.view_for(state, 2)
    evidence = forecast.bidding_evidence(inference.read_bids(view, view["faceup"]))
    assert evidence
    assert all(ev.seat == 1 for ev in evidence)
    strong_passer = 0
    for _ in range(200):
        guess = forecast.bidding_deal(2, view["hand"], view["faceup"], evidence, rng)
        held = [*forecast.cards(guess.five[0]), view["faceup"]]
        strong_passer += sun_strength(held) >= SUN_BID
    unweighted = 0
    for _ in range(200):
        guess = forecast.bidding_deal(2, view["hand"], view["faceup"], [], rng)
        held = [*forecast.cards(guess.five[0]), view["faceup"]]
        unweighted += sun_strength(held) >= SUN_BID
    assert strong_passer < unweighted / 2


def test_declaring_more_is_a_real_choice_for_the_bidders_only() -> None:
    # D20: projects count only for the team with the best one, so an undoubled
    # defender never loses by declaring more. A bidder can: a defeat hands
    # its projects to the defenders (D23), so the declarations are worth judging.
    rng = random.Random(23)
    compared = 0
    bidder_lost = 0
    while compared < 300:
        deck = list(range(32))
        rng.shuffle(deck)
        hands = tuple(sum(1 << c for c in deck[8 * s : 8 * s + 8]) for s in range(4))
        sun = rng.random() < 0.5
        game = forecast.Deal("sun" if sun else "hokum", -1 if sun else rng.randrange(4), 1, 1)
        seat = rng.randint(1, 4)
        if forecast.baloot_cards(hands[seat - 1], game):
            continue
        options = declaration_options(hands[seat - 1], sun)
        if len(options) < 2:
            continue
        taken = (rng.randint(0, 162), rng.randint(0, 162))
        others = {s: forecast.best_declaration(hands[s - 1], game) for s in (1, 2, 3, 4)}
        team = (seat - 1) % 2
        for fewer in options:
            for more in options:
                if set(fewer) < set(more):
                    low = forecast.score(hands, game, team, {**others, seat: fewer}, taken)
                    high = forecast.score(hands, game, team, {**others, seat: more}, taken)
                    if team == 1:
                        assert high >= low
                    else:
                        bidder_lost += high < low
                    compared += 1
    assert bidder_lost > 0
