"""Random complete matches through the engine: 200 in every run, 2,000 more
behind the ``soak`` marker (`make soak`)."""

from __future__ import annotations

import pytest

from games.rules import Phase, view_for

from .playout import play_match


@pytest.mark.parametrize("block", range(10))
def test_random_matches_keep_every_invariant(block: int) -> None:
    for seed in range(block * 20, block * 20 + 20):
        state = play_match(seed)
        assert state.phase is Phase.MATCH_OVER
        assert state.winner in ("A", "B")


@pytest.mark.soak
@pytest.mark.parametrize("block", range(40))
def test_two_thousand_random_matches(block: int) -> None:
    for seed in range(10_000 + block * 50, 10_000 + block * 50 + 50):
        state = play_match(seed)
        assert state.winner in ("A", "B")


def test_a_seat_view_is_not_taken_for_the_public_one() -> None:
    state = play_match(3, thorough=False)
    with pytest.raises(ValueError, match="public view"):
        view_for(state, 2, public=view_for(state, 1))
