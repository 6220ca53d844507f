"""Every shortcut of the engine (issue 13) against the full computation it
replaces, on thousands of seeded random positions: the quick Sawa refusals
and acceptances against the bare search, the quick "nothing to declare"
against the full project scan, the compact moves against the notation
actions, the shape check's fast path against the full check, the
table-driven card moves against the card-by-card ones, the trick table
against the trick loops, and the declaration lists built on card masks
against the ones built with ``compatible``."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from types import MappingProxyType
from typing import Any

import pytest

from games.rules import (
    CARD_STR,
    IllegalAction,
    Phase,
    State,
    action_of,
    apply,
    apply_move,
    legal_actions,
    legal_moves,
    new_match,
    random_deck,
    start_deal,
)
from games.rules.actions import check_shape
from games.rules.cards import card_at, trick_points, trick_result, trick_winner
from games.rules.doubling import CALL_AT_STEP, LOCKED
from games.rules.playing import BALOOT, moves, scan_moves
from games.rules.projects import (
    candidates,
    declaration_options,
    declarations,
    holds_project,
    scan_candidates,
    scan_declaration_options,
)
from games.rules.sawa import can_claim, search_claim

# The compact form of a Gahwa call (doubling.moves), LOCKED aside.
GAHWA = CALL_AT_STEP.index("gahwa") + 1


def random_states(seed: int, matches: int) -> Iterator[State]:
    """Every state met while playing ``matches`` random matches."""
    rng = random.Random(seed)
    for _ in range(matches):
        state = new_match(rng.choice(["classic", "quick"]), rng.randint(1, 4))
        while state.phase is not Phase.MATCH_OVER:
            if state.phase in (Phase.DEALING, Phase.ROUND_OVER):
                state = start_deal(state, random_deck(rng))
                continue
            yield state
            state = apply_move(state, rng.choice(legal_moves(state)))


def test_sawa_shortcuts_agree_with_the_search_in_played_deals() -> None:
    positions = claims = 0
    for state in random_states(1, 60):
        if state.phase is not Phase.PLAYING or state.trick:
            continue
        for seat in (1, 2, 3, 4):
            full = search_claim(state.hands, seat, state.trump, state.lock)
            assert can_claim(state.hands, seat, state.trump, state.lock) == full, (
                state.hands,
                seat,
                state.trump,
                state.lock,
            )
            positions += 1
            claims += full
    assert positions > 5_000
    assert claims > 500


def test_sawa_shortcuts_agree_with_the_search_on_random_end_games() -> None:
    rng = random.Random(2)
    claims = {"sun": 0, "hokum": 0, "locked": 0}
    for _ in range(30_000):
        cards = rng.sample(range(32), 32)
        size = rng.randint(1, 8)
        hands = (
            sum(1 << c for c in cards[0:size]),
            sum(1 << c for c in cards[size : 2 * size]),
            sum(1 << c for c in cards[2 * size : 3 * size]),
            sum(1 << c for c in cards[3 * size : 4 * size]),
        )
        trump = rng.randint(-1, 3)
        lock = trump >= 0 and rng.random() < 0.5
        seat = rng.randint(1, 4)
        full = search_claim(hands, seat, trump, lock)
        assert can_claim(hands, seat, trump, lock) == full, (hands, seat, trump, lock)
        if full:
            claims["locked" if lock else "hokum" if trump >= 0 else "sun"] += 1
    # Valid claims of every kind were met, so the agreement says something.
    assert min(claims.values()) > 300, claims


def test_nothing_to_declare_agrees_with_the_full_scan() -> None:
    rng = random.Random(3)
    with_projects = 0
    for _ in range(20_000):
        hand = sum(1 << c for c in rng.sample(range(32), rng.choice([5, 8])))
        for sun in (False, True):
            full = scan_candidates(hand, sun)
            assert holds_project(hand) == bool(full), hand
            assert candidates(hand, sun) == full
            if not full:
                assert declarations(hand, sun) == [[]]
        with_projects += bool(full)
    assert with_projects > 2_000


def test_compact_moves_are_the_legal_actions() -> None:
    checked = 0
    for state in random_states(4, 25):
        moves = legal_moves(state)
        actions = legal_actions(state)
        assert [action_of(state, m) for m in moves] == actions
        for move, action in zip(moves, actions, strict=True):
            assert apply_move(state, move) == apply(state, action)
            checked += 1
    assert checked > 10_000


def _random_action(rng: random.Random) -> Any:
    seat = rng.choice([1, 2, 3, 4, 0, 5, "1", True, None])
    verb, value = rng.choice(
        [
            ("play", rng.choice([*CARD_STR[:4], "XX", 3, None])),
            ("bid", rng.choice(["pass", "sun", "hokum", "ashkal", "confirm", "up", 1])),
            ("double", rng.choice(["double", "triple", "four", "gahwa", "pass", "x"])),
            ("sawa", rng.choice([True, False])),
            ("redeal", rng.choice([True, 1])),
            ("declare", rng.choice([[], [{"project": "sira", "cards": ["7S", "8S", "9S"]}], 3])),
            ("shout", "hi"),
        ]
    )
    action: dict[str, Any] = {"seat": seat, verb: value}
    if rng.random() < 0.3:
        extra, extra_value = rng.choice(
            [("auto", True), ("at", "2026-01-01"), ("lock", True), ("trump", "S"), ("baloot", 1)]
        )
        action[extra] = extra_value
    if rng.random() < 0.1:
        del action["seat"]
    return action


def _verdict(action: Any) -> str:
    try:
        return check_shape(action)
    except IllegalAction as error:
        return f"refused: {error}"


@pytest.mark.parametrize("seed", range(3))
def test_the_shape_check_fast_path_agrees_with_the_full_check(seed: int) -> None:
    rng = random.Random(seed)
    accepted = 0
    for _ in range(5_000):
        action = _random_action(rng)
        # A read-only mapping is not a dict, so it always takes the full check.
        verdict = _verdict(action)
        assert verdict == _verdict(MappingProxyType(action)), action
        accepted += not verdict.startswith("refused")
    assert accepted > 500


def hokum_play_states(seed: int, deals: int) -> Iterator[State]:
    """Every card-play state of ``deals`` random deals bid only in Hokum and
    never taken to Gahwa, where Baloot and locked games are common (uniform
    bidding mostly ends in Sun)."""
    rng = random.Random(seed)
    state = new_match("classic", 1)
    for _ in range(deals):
        if state.phase is Phase.MATCH_OVER:
            state = new_match("classic", rng.randint(1, 4))
        state = start_deal(state, random_deck(rng))
        while state.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            options = legal_moves(state)
            if state.phase is Phase.BIDDING:
                # Compact bids: 1 is Sun and 3 Ashkal; 0 (Pass) is always offered.
                options = [m for m in options if m not in (1, 3)] or options
            elif state.phase is Phase.DOUBLING:
                # Compact calls: 1 + the call's index in CALL_AT_STEP, plus LOCKED.
                options = [m for m in options if m & ~LOCKED != GAHWA]
            elif state.phase is Phase.PLAYING:
                yield state
            state = apply_move(state, rng.choice(options))


def test_table_card_moves_agree_with_the_card_by_card_scan() -> None:
    checked = announced = claims = locked = 0
    for state in itertools.chain(random_states(5, 40), hokum_play_states(6, 600)):
        if state.phase is not Phase.PLAYING:
            continue
        full = scan_moves(state)
        assert moves(state) == full, (state.hands, state.trick, state.turn, state.lock)
        checked += 1
        locked += state.lock and not state.trick
        announced += any(m & BALOOT for m in full if m < 64)
        claims += 64 in full
    assert checked > 12_000
    # Baloot forms, Sawa claims and locked leads were met, so the agreement covers them.
    assert announced > 100
    assert claims > 100
    assert locked > 100


def test_trick_table_agrees_with_the_trick_loops() -> None:
    rng = random.Random(6)
    for _ in range(20_000):
        seats = rng.sample([1, 2, 3, 4], 4)
        # Tricks drawn from few suits, so that following and ruffing are common.
        suits = rng.sample(range(4), rng.randint(1, 4))
        cards = rng.sample([card_at(s, r) for s in suits for r in range(8)], 4)
        plays = tuple(zip(seats, cards, strict=True))
        trump = rng.randint(-1, 3)
        assert trick_result(plays, trump) == (
            trick_winner(plays, trump),
            trick_points(plays, trump),
        ), (plays, trump)


def test_mask_declaration_lists_agree_with_the_full_enumeration() -> None:
    rng = random.Random(7)
    several = 0
    for _ in range(20_000):
        # Hands drawn from two or three suits hold runs and sets more often.
        suits = rng.sample(range(4), rng.choice([2, 3, 4]))
        pool = [card_at(s, r) for s in suits for r in range(8)]
        hand = sum(1 << c for c in rng.sample(pool, rng.choice([5, 8])))
        for sun in (False, True):
            full = scan_declaration_options(hand, sun)
            assert declaration_options(hand, sun) == full, (hand, sun)
            several += len(full) > 3
    assert several > 2_000
