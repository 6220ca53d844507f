"""Snapshots (issue 10): versioned, and holding no history of earlier deals."""

from __future__ import annotations

import json
import random

import pytest

from games.rules import (
    ENGINE_VERSION,
    Phase,
    StaleSnapshot,
    State,
    apply,
    legal_actions,
    new_match,
    random_deck,
    restore,
    snapshot,
    snapshot_results,
    start_deal,
)


def all_passed_deals(count: int) -> list[State]:
    """The state at the start of each of ``count`` deals that everyone passes."""
    rng = random.Random(12)
    state = new_match()
    starts = []
    for _ in range(count):
        state = start_deal(state, random_deck(rng))
        starts.append(state)
        while state.phase is Phase.BIDDING:
            state = apply(state, {"seat": state.turn, "bid": "pass"})
        assert state.results[-1].outcome == "all_passed"
    return starts


def test_a_snapshot_keeps_only_the_latest_result_and_restores_with_the_earlier_ones() -> None:
    starts = all_passed_deals(5)
    for state in starts:
        data = json.loads(json.dumps(snapshot(state)))
        start, own = snapshot_results(data)
        assert start == max(len(state.results) - 1, 0)
        assert own == state.results[start:]
        assert restore(data, state.results[:start]) == state
        assert restore(snapshot(state, results_from=0)) == state


def test_restoring_without_the_earlier_results_is_refused() -> None:
    state = all_passed_deals(3)[-1]
    with pytest.raises(ValueError, match="earlier deals"):
        restore(snapshot(state))


def test_a_snapshot_of_another_engine_version_is_refused() -> None:
    state = all_passed_deals(2)[-1]
    data = snapshot(state)
    assert data["engine"] == ENGINE_VERSION
    for version in (ENGINE_VERSION - 1, ENGINE_VERSION + 1, None):
        stale = {**data, "engine": version}
        with pytest.raises(StaleSnapshot):
            snapshot_results(stale)
        with pytest.raises(StaleSnapshot):
            restore(stale, state.results[:-1])
    # The layout before versions: every field of the state at the top level.
    with pytest.raises(StaleSnapshot):
        restore(data["state"])


def test_snapshot_size_does_not_grow_with_the_deals_played() -> None:
    starts = all_passed_deals(200)
    sizes = [len(json.dumps(snapshot(state))) for state in starts]
    # Scores and dealer numbers may gain a digit; no deal's result is repeated.
    assert max(sizes) <= sizes[1] + 50, (sizes[0], sizes[1], max(sizes))
    assert sizes[-1] <= sizes[0] + 600


def test_every_phase_round_trips() -> None:
    rng = random.Random(3)
    state = start_deal(new_match(), random_deck(rng))
    phases = set()
    while state.phase is not Phase.ROUND_OVER:
        phases.add(state.phase)
        data = json.loads(json.dumps(snapshot(state, results_from=0)))
        assert restore(data) == state
        state = apply(state, rng.choice(legal_actions(state)))
    assert Phase.PLAYING in phases
