"""Racing submissions on PostgreSQL: one event, and a clear answer for every loser."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from games.match import errors, services
from games.match.models import Event
from tests.support.drivers import Table
from tests.support.log_check import assert_log_consistent

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 20


def race(table: Table, action: dict[str, object]) -> Counter[str]:
    """Submit ``action`` from THREADS threads at once; count how each submission ended."""
    seat = table.turn
    player = table.players[seat]
    match_id = table.outcome.match.pk
    seen = table.outcome.seq
    start = threading.Barrier(THREADS)
    results: list[str] = []
    lock = threading.Lock()

    def submit() -> None:
        try:
            start.wait()
            services.submit(player, match_id, action, seen)
            result = "recorded"
        except errors.ServiceError as error:
            result = type(error).__name__
        except Exception as error:  # any other failure would be a 500 for a player
            result = f"crashed: {error!r}"
        finally:
            connection.close()
        with lock:
            results.append(result)

    threads = [threading.Thread(target=submit) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == THREADS, "a submission never finished"
    return Counter(results)


def test_twenty_identical_submissions_make_one_event(table: Table):
    seen = table.outcome.seq
    outcomes = race(table, {"bid": "pass"})
    assert outcomes == Counter({"recorded": 1, "DuplicateAction": THREADS - 1})
    match = table.outcome.match
    assert Event.objects.filter(match=match).count() == seen + 1
    assert_log_consistent(match)


def test_twenty_racing_submissions_at_a_deal_end_make_one_deal(table: Table):
    # Walk to the last action of the deal, then race it: the deal must be
    # followed by exactly one new deal.
    from games import rules

    while True:
        before = len(table.state.results)
        ending = [
            a
            for a in rules.legal_actions(table.state)
            if len(rules.apply(table.state, a).results) > before
        ]
        if ending:
            break
        table.act()
    seen = table.outcome.seq
    outcomes = race(table, ending[0])
    assert outcomes == Counter({"recorded": 1, "DuplicateAction": THREADS - 1})
    match = table.outcome.match
    assert Event.objects.filter(match=match).count() == seen + 2
    assert Event.objects.filter(match=match, seq=seen + 2, kind="deal").exists()
    assert_log_consistent(match)
