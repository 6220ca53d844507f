"""The double-dummy solver against plain minimax over the engine's own rules.

Every end-game is a seeded random deal (random bids and calls, drawn in turn
for each kind of contract, Sun, Ashkal, Hokum and locked Hokum, because random
bids alone give Sun most of the time and a ruff is only ever tried in Hokum)
played at random until at most four tricks are left, stopped at any card of a
trick. The reference is an unpruned
minimax over ``legal_actions``/``apply``: the solver's own legality, card
equivalences, ordering and table must not change a single value.
"""

from __future__ import annotations

import random

import pytest

from games.rules import (
    Phase,
    apply,
    legal_actions,
    new_match,
    random_deck,
    solver,
    start_deal,
)
from games.rules.cards import CARD_STR, cards_of
from games.rules.playing import playable
from games.rules.state import State
from tests.rules.endgames import KINDS, deal_in_play, endgame, kind_of, minimax


def _check_endgames(seed: int, count: int, max_tricks: int) -> set[str]:
    rng = random.Random(seed)
    kinds = set()
    for number in range(count):
        state = endgame(rng, max_tricks, KINDS[number % len(KINDS)])
        kinds.add(kind_of(state))
        position = solver.position_of(state)
        a, b = solver.value(position)
        assert a == minimax(state), state.deal_actions
        assert a + b == solver.remaining_points(position)
    return kinds


def test_end_games_of_up_to_four_tricks_match_minimax() -> None:
    assert _check_endgames(seed=2026, count=40, max_tricks=4) == set(KINDS)


@pytest.mark.soak
def test_a_thousand_end_games_match_minimax() -> None:
    assert _check_endgames(seed=13, count=1000, max_tricks=4) == set(KINDS)


def test_legal_cards_are_the_engines() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 2000:
        state = deal_in_play(rng)
        while state.phase is Phase.PLAYING:
            seat = state.turn
            assert seat is not None
            expected = playable(state, seat)
            position = solver.position_of(state)
            got = solver.legal_cards(
                state.hands[seat - 1], position.trick, position.trump, state.lock
            )
            assert got == expected
            if len(state.tricks) >= 5:
                # The search tries exactly these cards at its root.
                assert set(solver.card_values(position)) == {CARD_STR[c] for c in cards_of(got)}
            checked += 1
            plays = [a for a in legal_actions(state) if "play" in a]
            state = apply(state, rng.choice(plays))


def test_card_values_and_best_cards_agree_with_the_value() -> None:
    rng = random.Random(9)
    for _ in range(30):
        state = endgame(rng, 3)
        position = solver.position_of(state)
        a, b = solver.value(position)
        values = solver.card_values(position)
        team = (position.turn - 1) % 2
        assert max(v[team] for v in values.values()) == (a, b)[team]
        best = solver.best_cards(position)
        assert best
        assert all(values[card] == (a, b) for card in best)
        for card, (va, _) in values.items():
            after = apply(state, {"seat": state.turn, "play": card})
            if after.phase is Phase.PLAYING:
                # The value after the card, from the next trick start on, plus
                # what the card's trick gave, is the card's value.
                done = after.points[0] - state.points[0]
                assert solver.value(solver.position_of(after))[0] + done == va
            else:
                assert after.points[0] - state.points[0] == va


def test_action_values_cover_every_legal_action_and_value_sawa() -> None:
    state = _position_with_sawa()
    values = solver.action_values(state)
    assert [a for a, _ in values] == legal_actions(state)
    total = solver.remaining_points(solver.position_of(state))
    sawa = [v for a, v in values if a.get("sawa")]
    team = (solver.position_of(state).turn - 1) % 2
    assert sawa
    assert sawa[0][team] == total
    # A valid Sawa wins every trick, so playing it out is worth the same.
    assert max(v[team] for _, v in values) == total


def _position_with_sawa() -> State:
    rng = random.Random(3)
    while True:
        state = endgame(rng, 3)
        if len(state.trick) == 0 and any(a.get("sawa") for a in legal_actions(state)):
            return state


def test_a_hand_checked_last_trick() -> None:
    # Sun, seat 1 leads the last trick: AS wins with TS, KS and 7H under it.
    position = solver.Position.from_cards([["AS"], ["TS"], ["KS"], ["7H"]], [], turn=1, trump=None)
    assert solver.value(position) == (11 + 10 + 4 + 10, 0)
    # Hokum in hearts: seat 4's 7H ruffs.
    position = solver.Position.from_cards([["AS"], ["TS"], ["KS"], ["7H"]], [], turn=1, trump="H")
    assert solver.value(position) == (0, 11 + 10 + 4 + 10)


def test_the_lock_forbids_a_trump_lead() -> None:
    # Hokum in spades. Unlocked, seat 1 leads JS and draws the 9S, then its AH
    # wins the last trick; locked, it must lead AH first, and seat 2 ruffs.
    hands = [["JS", "AH"], ["9S", "7D"], ["7C", "8C"], ["8D", "9D"]]
    free = solver.Position.from_cards(hands, [], turn=1, trump="S")
    locked = solver.Position.from_cards(hands, [], turn=1, trump="S", lock=True)
    assert solver.best_cards(free) == ["JS"]
    assert solver.value(free) == (20 + 14 + 11 + 10, 0)
    assert set(solver.card_values(locked)) == {"AH"}
    assert solver.value(locked) == (20 + 10, 11 + 14)


def test_positions_are_checked() -> None:
    with pytest.raises(ValueError, match="twice"):
        solver.Position.from_cards([["AS"], ["AS"], ["KS"], ["7H"]], [], 1, None)
    with pytest.raises(ValueError, match="same number"):
        solver.Position.from_cards([["AS", "KH"], ["TS"], ["KS"], ["7H"]], [], 1, None)
    with pytest.raises(ValueError, match="follow the trick"):
        solver.Position.from_cards([["AS"], [], ["KS"], ["7H"]], [(2, "TS")], 1, None)
    with pytest.raises(ValueError, match="being played"):
        solver.position_of(start_deal(new_match(), random_deck(random.Random(1))))


def _check_deal_solver(seed: int, count: int, max_tricks: int) -> int:
    """Each end-game played at random to its end, every position searched with one
    ``DealSolver`` (forward or backward through the deal, with guesses right,
    wrong and out of range) against fresh searches and plain minimax."""
    rng = random.Random(seed)
    checked = 0
    for number in range(count):
        state = endgame(rng, max_tricks, KINDS[number % len(KINDS)])
        states = [state]
        while state.phase is Phase.PLAYING:
            plays = [a for a in legal_actions(state) if "play" in a and not a.get("baloot")]
            state = apply(state, rng.choice(plays))
            if state.phase is Phase.PLAYING:
                states.append(state)
        if number % 2:
            states.reverse()
        search = solver.DealSolver()
        for state in states:
            position = solver.position_of(state)
            expected = solver.value(position)
            assert expected[0] == minimax(state), state.deal_actions
            total = solver.remaining_points(position)
            guess = rng.choice(
                [None, expected[0], expected[0] + rng.randint(-20, 20), -5, total + 7, 0, total]
            )
            assert search.value(position, guess) == expected, (state.deal_actions, guess)
            best = solver.best_cards(position)
            assert search.best_cards(position, expected) == best, state.deal_actions
            assert search.best_cards(position) == best, state.deal_actions
            checked += 1
    return checked


def test_a_deal_solver_gives_the_values_and_best_cards_of_fresh_searches() -> None:
    assert _check_deal_solver(seed=31, count=150, max_tricks=3) > 500


@pytest.mark.soak
def test_a_deal_solver_on_many_end_games() -> None:
    assert _check_deal_solver(seed=32, count=300, max_tricks=4) > 1500


def test_a_deal_solver_on_bigger_positions() -> None:
    # Six tricks left, beyond minimax's reach: compared with fresh searches,
    # the table shared along the deal.
    rng = random.Random(33)
    for _ in range(4):
        state = deal_in_play(rng)
        while len(state.tricks) < 2:
            plays = [a for a in legal_actions(state) if "play" in a and not a.get("baloot")]
            state = apply(state, rng.choice(plays))
        search = solver.DealSolver()
        for _card in range(8):
            position = solver.position_of(state)
            expected = solver.value(position)
            assert search.value(position, expected[0] + rng.randint(-8, 8)) == expected
            assert search.best_cards(position, expected) == solver.best_cards(position)
            plays = [a for a in legal_actions(state) if "play" in a and not a.get("baloot")]
            state = apply(state, rng.choice(plays))
