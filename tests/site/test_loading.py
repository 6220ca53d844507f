"""Loading a match costs the same whatever its length (per-deal snapshots)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.event_log import replay_log
from games.models import DealSnapshot, Match
from tests.site.conftest import Table, assert_log_consistent

pytestmark = pytest.mark.django_db

# The latest snapshot, then the events after it.
LOAD_QUERIES = 2


def test_load_state_query_count_does_not_grow_with_the_match(
    table: Table, django_assert_num_queries
):
    match = Match.objects.get(pk=table.outcome.match.pk)
    with django_assert_num_queries(LOAD_QUERIES):
        services.load_state(match)
    for _ in range(6):
        table.finish_deal()
    assert DealSnapshot.objects.filter(match=match).count() == 7
    match.refresh_from_db()
    with django_assert_num_queries(LOAD_QUERIES):
        state = services.load_state(match)
    assert state == replay_log(match) == table.state
    assert len(state.results) == 6


def test_submit_query_count_does_not_grow_with_the_match(table: Table):
    def queries_of_opening_pass() -> int:
        seat = table.turn
        with CaptureQueriesContext(connection) as captured:
            table.outcome = services.submit(
                table.players[seat], table.outcome.match, {"bid": "pass"}, table.outcome.seq
            )
        assert_log_consistent(table.outcome.match, table.outcome.state)
        return len(captured.captured_queries)

    first_deal = queries_of_opening_pass()
    for _ in range(6):
        table.finish_deal()
    assert len(table.state.results) == 6
    assert queries_of_opening_pass() == first_deal
