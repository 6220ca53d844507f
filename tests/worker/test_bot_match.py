"""Four bots play a whole match through the worker's service path, to a winner."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from games import rules
from games.match import services
from games.match.models import Event, Match
from games.worker import due_turns
from tests.support.clock import deadline_of, reload
from tests.support.log_check import LogCheck, assert_log_consistent

pytestmark = pytest.mark.django_db


def test_four_bots_play_a_match_to_its_winner_with_a_consistent_log(
    start_table: Callable[..., services.Outcome],
):
    outcome = start_table(bots=(1, 2, 3, 4))
    match = outcome.match
    check_log = LogCheck()
    check_log(match, outcome.state)
    deals = 1
    while reload(match).status == Match.Status.PLAYING:
        stored = reload(match)
        # Bots act BOT_DELAY_SECONDS (0 here) after their turn comes.
        assert due_turns.advance_due(now=deadline_of(stored)) == 1
        after = reload(match)
        assert after.seq > stored.seq
        # The new events against load_state and the projections; the whole
        # rebuild and the verifier whenever a deal was dealt.
        check_log(after)
        if Event.objects.filter(match=match, seq=after.seq, kind=Event.Kind.DEAL).exists():
            deals += 1
    final = assert_log_consistent(match)
    assert final.phase is rules.Phase.MATCH_OVER
    match = reload(match)
    assert match.winner in ("A", "B")
    assert match.winner == final.winner
    assert match.deadline is None
    assert not Event.objects.filter(match=match, auto=True).exists()
    assert deals == len(final.results) >= 2
    assert match.finished_at is not None
    assert due_turns.advance_due(now=match.finished_at + timedelta(days=1)) == 0
