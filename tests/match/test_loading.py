"""Loading a match costs the same whatever its length (per-deal snapshots)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import rules
from games.match import services
from games.match.event_log import rebuild_state
from games.match.models import DealSnapshot, Match
from tests.support.drivers import Table
from tests.support.log_check import assert_log_consistent

pytestmark = pytest.mark.django_db

# The latest snapshot, then the events after it.
LOAD_QUERIES = 2


def test_load_state_query_count_does_not_grow_with_the_match(
    table: Table, django_assert_num_queries
):
    table.calm = True
    deals = 0
    while table.state.phase is not rules.Phase.MATCH_OVER:
        # Measured halfway through every deal, after its snapshot.
        for _ in range(10):
            table.act()
        match = Match.objects.get(pk=table.outcome.match.pk)
        with django_assert_num_queries(LOAD_QUERIES):
            state = services.load_state(match)
        assert state == rebuild_state(match) == table.state
        deals += 1
        if table.state.phase is not rules.Phase.MATCH_OVER:
            table.finish_deal()
    assert deals >= 3
    assert DealSnapshot.objects.filter(match=table.outcome.match).count() >= deals


def test_submit_query_count_does_not_grow_with_the_match(table: Table):
    table.calm = True
    counts = []
    while table.state.phase is not rules.Phase.MATCH_OVER:
        # Every deal's opening bid, a pass, never ends the deal.
        seat = table.turn
        with CaptureQueriesContext(connection) as captured:
            table.outcome = services.submit(
                table.players[seat], table.outcome.match, {"bid": "pass"}, table.outcome.seq
            )
        assert_log_consistent(table.outcome.match, table.outcome.state)
        counts.append(len(captured.captured_queries))
        table.finish_deal()
    assert len(counts) >= 3
    assert len(set(counts)) == 1, f"queries per opening bid grew: {counts}"
