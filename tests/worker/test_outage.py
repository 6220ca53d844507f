"""An outage costs no one a turn: the time no worker ran is given back to the pending turns."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError, connection

from games.management.commands.run_worker import Command
from games.match import broadcast, services
from games.match.models import Announcement, Event, Match
from games.worker import heartbeat
from games.worker.chores import Chores
from games.worker.due_turns import advance_due
from tests.support.clock import deadline_of, reload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _outage_after(settings):
    settings.WORKER_OUTAGE_SECONDS = 5


@pytest.fixture
def started(clock, start_table):
    """A table of four people, its start already announced."""

    def start() -> services.Outcome:
        outcome = start_table()
        delivered()
        return outcome

    return start


def delivered() -> None:
    """Every announcement so far was sent (tests commit nothing, so nobody sent them)."""
    Announcement.objects.all().delete()


def beat_every_second(clock, seconds: int) -> None:
    """Workers running as usual for ``seconds``: a beat each second."""
    for _ in range(seconds):
        clock.advance(1)
        assert heartbeat.beat() is None


def forced_turns(match: Match) -> int:
    return Event.objects.filter(match=match, auto=True).count()


def test_the_first_beat_moves_nothing(clock, started):
    outcome = started()
    before = deadline_of(outcome.match)
    assert heartbeat.beat() is None
    assert deadline_of(outcome.match) == before


def test_a_timeout_while_workers_run_is_unchanged(clock, started):
    outcome = started()
    deadline = deadline_of(outcome.match)
    heartbeat.beat()
    seconds = int((deadline - clock.now).total_seconds())
    beat_every_second(clock, seconds)
    assert deadline_of(outcome.match) == deadline
    assert advance_due() == 1
    assert forced_turns(outcome.match) == 1


def test_after_an_outage_the_pending_turn_gets_its_time_back(clock, started):
    outcome = started()
    heartbeat.beat()
    clock.advance(2)
    heartbeat.beat()
    left = deadline_of(outcome.match) - clock.now

    # No worker runs for longer than the whole timer.
    clock.advance(30)
    assert heartbeat.beat() == timedelta(seconds=30)

    assert deadline_of(outcome.match) == clock.now + left
    assert advance_due() == 0
    assert forced_turns(outcome.match) == 0
    # Pages are told to show the fresh countdown, at the same event.
    [told] = Announcement.objects.all()
    assert (told.match_id, told.seq, told.clock) == (outcome.match.pk, outcome.seq, True)
    # The time given back runs out as usual.
    clock.advance(left.total_seconds())
    assert advance_due() == 1
    assert forced_turns(outcome.match) == 1


def test_a_turn_given_during_the_outage_starts_afresh(clock, started, players):
    outcome = started()
    heartbeat.beat()
    clock.advance(3)
    state = outcome.state
    seat = state.turn
    services.submit(players[seat], outcome.match, {"seat": seat, "bid": "pass"}, outcome.seq)
    match = reload(outcome.match)
    # The event's time, as the committing process's clock stamped it.
    Event.objects.filter(match=match, seq=match.seq).update(created_at=clock.now)
    delivered()
    full = deadline_of(match) - clock.now

    clock.advance(20)
    assert heartbeat.beat() is not None
    assert deadline_of(match) == clock.now + full


def test_workers_coming_back_together_give_the_time_back_once(clock, started):
    outcome = started()
    heartbeat.beat()
    before = deadline_of(outcome.match)
    clock.advance(12)
    assert heartbeat.beat() is not None
    assert heartbeat.beat() is None
    assert deadline_of(outcome.match) == before + timedelta(seconds=12)


def test_short_gaps_and_finished_matches_are_left_alone(clock, started):
    running = started()
    over = started()
    services.abort_match(over.match.pk)
    delivered()
    heartbeat.beat()
    before = deadline_of(running.match)
    clock.advance(4)
    assert heartbeat.beat() is None
    assert deadline_of(running.match) == before
    clock.advance(60)
    heartbeat.beat()
    assert reload(over.match).deadline is None


@pytest.mark.django_db(transaction=True)
def test_after_the_database_was_out_of_reach_the_worker_gives_the_time_back_first(
    clock, started, monkeypatch
):
    outcome = started()
    worker = Command()
    # What handle() sets up before its first pass.
    worker.chores = Chores()
    worker._pass()
    # What the turn had left at the worker's last beat is what it gets back.
    left = deadline_of(outcome.match) - clock.now
    clock.advance(2)

    # The database stops answering for longer than the timer; the worker keeps running.
    reachable = broadcast.relay_pending
    down = True

    def relay(now=None):
        if down:
            raise OperationalError("connection refused")
        return reachable(now)

    monkeypatch.setattr(broadcast, "relay_pending", relay)
    assert worker._pass() == 0
    clock.advance(30)
    down = False

    # Its first pass once the database answers gives the time back, then plays what is due.
    assert worker._pass() == 0
    assert forced_turns(outcome.match) == 0
    assert deadline_of(outcome.match) == clock.now + left


@pytest.mark.django_db(transaction=True)
def test_the_worker_keeps_its_connection_from_pass_to_pass_until_it_breaks(clock, started):
    started()
    worker = Command()
    worker.chores = Chores()
    worker._pass()
    kept = connection.connection
    assert kept is not None
    worker._pass()
    worker._pass()
    assert connection.connection is kept
    if connection.vendor == "sqlite":
        return  # an in-memory database's connection is never closed
    # A connection that stopped answering is dropped, and the next pass takes another.
    connection.errors_occurred = True
    monkeypatch = pytest.MonkeyPatch()
    with monkeypatch.context() as patched:
        patched.setattr(connection, "is_usable", lambda: False)
        worker._pass()
    assert connection.connection is not None
    assert connection.connection is not kept
