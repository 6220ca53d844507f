"""Expired timers and bots' turns, played by ``due_turns.advance_due`` on a clock the test moves."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import rules
from games.match import services
from games.match.event_log import load_state
from games.match.models import DealSnapshot, Event, Match, Seat
from games.worker import due_turns, heartbeat
from tests.support.clock import Clock, deadline_of, reload
from tests.support.log_check import assert_log_consistent

pytestmark = pytest.mark.django_db

TableStarter = Callable[..., services.Outcome]


def last_action(match: Match) -> Event:
    """The match's latest action event (a deal may follow it)."""
    return Event.objects.filter(match=match, kind=Event.Kind.ACTION).latest("seq")


def expire(match: Match, clock: Clock) -> int:
    """Move the clock to the match's deadline and let the due turns play."""
    return due_turns.advance_due(now=clock.set(deadline_of(match)))


def turn_of(match: Match) -> int:
    """The seat to act in the stored match."""
    turn = load_state(reload(match)).turn
    assert turn is not None
    return turn


def seat(match: Match, number: int) -> Seat:
    return Seat.objects.get(match=match, number=number)


def test_nothing_is_played_before_the_deadline(start_table: TableStarter, clock: Clock):
    match = start_table().match
    deadline = deadline_of(match)
    assert due_turns.advance_due(now=deadline - timedelta(microseconds=1)) == 0
    assert reload(match).seq == 1


def test_at_the_deadline_the_engine_plays_the_forced_action_marked_auto(
    start_table: TableStarter, clock: Clock
):
    outcome = start_table()
    expected = rules.forced_action(outcome.state)
    late = turn_of(outcome.match)
    assert expire(outcome.match, clock) == 1
    event = last_action(outcome.match)
    assert event.seq == outcome.seq + 1
    assert event.payload == expected
    assert event.payload["auto"] is True
    assert event.auto is True
    assert event.actor_seat == late
    assert seat(outcome.match, late).missed_turns == 1
    assert_log_consistent(outcome.match)


def test_a_running_match_without_a_deadline_is_due_at_once(start_table: TableStarter, clock: Clock):
    # As a match started before deadlines were stored would be.
    match = start_table(bots=(1, 2, 3, 4)).match
    Match.objects.filter(pk=match.pk).update(deadline=None)
    assert due_turns.advance_due(now=clock.now) == 1
    assert reload(match).seq == 2
    assert reload(match).deadline is not None


def test_a_due_turn_is_played_once_however_often_the_worker_asks(
    start_table: TableStarter, clock: Clock
):
    match = start_table().match
    assert expire(match, clock) == 1
    assert due_turns.advance_due(now=clock.now) == 0
    assert reload(match).seq == 2
    # A worker that saw the match before the event does nothing either.
    assert services.play_due_turn(match.pk, seen_seq=1, now=clock.advance(60)) is None
    assert reload(match).seq == 2


def test_bots_move_once_each_after_the_bot_delay(
    start_table: TableStarter, clock: Clock, settings: Any
):
    settings.BOT_DELAY_SECONDS = 1
    match = start_table(bots=(1, 2, 3, 4)).match
    for move in range(1, 6):
        assert due_turns.advance_due(now=clock.advance(0.999)) == 0
        assert due_turns.advance_due(now=clock.advance(0.001)) == 1
        assert due_turns.advance_due(now=clock.now) == 0
        event = last_action(match)
        assert event.seq == 1 + move
        assert event.auto is False
        assert "auto" not in event.payload
    assert_log_consistent(match)


def test_three_missed_turns_put_the_seat_away_until_its_player_comes_back(
    start_table: TableStarter, players: dict[int, User], clock: Clock
):
    outcome = start_table()
    match = outcome.match
    first = turn_of(outcome.match)
    misses = 0
    while misses < 3:
        acting = turn_of(match)
        assert expire(match, clock) == 1
        assert last_action(match).auto is True
        if acting == first:
            misses += 1
            assert seat(match, first).missed_turns == misses
            assert seat(match, first).away is (misses == 3)
    # From now on the bot plays the seat, after the bot delay, without "auto".
    while turn_of(match) != first:
        assert expire(match, clock) == 1
    assert reload(match).deadline == clock.now
    assert expire(match, clock) == 1
    played = last_action(match)
    assert (played.actor_seat, played.auto) == (first, False)
    assert_log_consistent(match)

    services.come_back(players[first], match)
    assert not seat(match, first).away
    while turn_of(match) != first:
        assert expire(match, clock) == 1
    # A person's full time again: 8 s for a decision, the table's 15 s for a card.
    playing = load_state(reload(match)).phase is rules.Phase.PLAYING
    assert (deadline_of(match) - clock.now).total_seconds() == (15 if playing else 8)
    assert expire(match, clock) == 1
    assert (last_action(match).actor_seat, last_action(match).auto) == (first, True)
    # Coming back does not wipe the count: one more missed turn, and the bot
    # plays the seat again. Only acting starts the count afresh.
    assert seat(match, first).missed_turns == 4
    assert seat(match, first).away


def test_a_player_acting_in_time_starts_counting_again(
    start_table: TableStarter, players: dict[int, User], clock: Clock
):
    outcome = start_table()
    first = turn_of(outcome.match)
    assert expire(outcome.match, clock) == 1
    assert seat(outcome.match, first).missed_turns == 1
    while turn_of(outcome.match) != first:
        assert expire(outcome.match, clock) == 1
    services.submit(players[first], outcome.match, {"bid": "pass"}, reload(outcome.match).seq)
    assert seat(outcome.match, first).missed_turns == 0


def test_a_player_who_leaves_is_played_by_the_bot(
    start_table: TableStarter, players: dict[int, User], clock: Clock
):
    outcome = start_table()
    leaving = turn_of(outcome.match)
    services.leave_seat(players[leaving], outcome.match)
    assert reload(outcome.match).deadline == clock.now
    assert due_turns.advance_due(now=clock.now) == 1
    event = last_action(outcome.match)
    assert (event.actor_seat, event.auto) == (leaving, False)
    assert seat(outcome.match, leaving).missed_turns == 0


def test_a_match_whose_log_does_not_replay_does_not_stop_the_others(
    start_table: TableStarter, clock: Clock, caplog: pytest.LogCaptureFixture
):
    broken = start_table(bots=(1, 2, 3, 4)).match
    healthy = start_table(bots=(1, 2, 3, 4)).match
    # Spoil the broken match's deck behind the services' back, and drop the
    # snapshot that would hide it, so that its log no longer replays.
    deal = Event.objects.get(match=broken, seq=1)
    deal.payload["deal"]["deck"] = deal.payload["deal"]["deck"][:31]
    Event.objects.filter(pk=deal.pk).update(payload=deal.payload)
    DealSnapshot.objects.filter(match=broken).delete()
    assert due_turns.advance_due(now=clock.now) == 1
    assert reload(healthy).seq == 2
    assert reload(broken).seq == 1
    failure = f"match {broken.pk}: the due turn could not be played"
    assert caplog.text.count(failure) == 1
    # It is tried again a minute later, not on every pass of the worker.
    assert deadline_of(broken) == clock.now + timedelta(minutes=1)
    due_turns.advance_due(now=clock.advance(59))
    assert caplog.text.count(failure) == 1
    due_turns.advance_due(now=clock.advance(1))
    assert caplog.text.count(failure) == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("bots", [(), (1, 2, 3, 4)], ids=["timer", "bot"])
def test_racing_workers_record_a_due_turn_once(
    start_table: TableStarter, clock: Clock, bots: tuple[int, ...], settings: Any
):
    # The turn after it is not due yet: a worker that lists the match only
    # once the first turn is committed finds nothing to play, rather than
    # rightly playing the next turn.
    settings.BOT_DELAY_SECONDS = 1
    match = start_table(bots=bots).match
    now = clock.set(deadline_of(match))
    workers = 8
    start = threading.Barrier(workers)
    played: list[int] = []
    failures: list[BaseException] = []

    def worker() -> None:
        try:
            start.wait()
            played.append(due_turns.advance_due(now=now))
        except BaseException as error:  # any failure fails the test below
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures
    assert sorted(played) == [0] * (workers - 1) + [1]
    assert Event.objects.filter(match=match).count() == 2
    assert last_action(match).auto is not bool(bots)
    assert_log_consistent(match)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_passes_over_a_match_another_transaction_holds(
    start_table: TableStarter, clock: Clock
):
    """A due match whose row is held is not waited for; it is played once released."""
    match = start_table(bots=(1, 2, 3, 4)).match
    now = clock.set(deadline_of(match))
    held = threading.Event()
    release = threading.Event()

    def holder() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                held.set()
                release.wait(30)
        finally:
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(30)
        # Would block until the holder ends if the worker queued for the row.
        assert due_turns.advance_due(now=now) == 0
        assert reload(match).seq == 1
    finally:
        release.set()
        thread.join(timeout=30)
    assert due_turns.advance_due(now=now) == 1
    assert_log_consistent(match)


def test_every_action_a_worker_records_is_logged_once_with_its_seat(
    start_table: TableStarter, clock: Clock, caplog: pytest.LogCaptureFixture
):
    """One line per turn, a hand without projects declaring at its own turn as any other."""
    match = start_table(bots=(1, 2, 3, 4)).match
    caplog.set_level(logging.INFO, logger=due_turns.__name__)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(150):
            expire(match, clock)
    logged = re.findall(r"match (\d+) event (\d+): bot in seat (\d)", caplog.text)
    actions = Event.objects.filter(match=match, kind=Event.Kind.ACTION)
    recorded = [(match.pk, event.seq, event.actor_seat) for event in actions]
    assert sorted((int(m), int(e), int(s)) for m, e, s in logged) == sorted(recorded)
    # Told from the turn's outcome, not read back from the events.
    assert not [q["sql"] for q in queries if '"games_event"."kind" =' in q["sql"]]


@pytest.mark.parametrize("bots", [(1, 2, 3, 4), ()])
def test_a_due_turn_loads_the_match_state_once(
    clock: Clock, start_table: TableStarter, monkeypatch: pytest.MonkeyPatch, bots: tuple[int, ...]
):
    """A bot's move and a forced one each read the log once, under the match's lock."""
    match = start_table(bots=bots).match
    loads: list[int] = []
    load = services.load_state

    def counted(stored: Match) -> rules.State:
        loads.append(stored.pk)
        return load(stored)

    monkeypatch.setattr(services, "load_state", counted)
    turn = services.play_due_turn(match.pk, now=clock.set(deadline_of(match)))
    assert turn is not None
    assert turn.auto == (not bots)
    assert loads == [match.pk]
    assert_log_consistent(match, turn.outcome.state)


@pytest.mark.parametrize("bots", [(1, 2, 3, 4), ()])
def test_a_run_of_due_turns_reads_the_log_only_when_another_process_moved_the_match(
    clock: Clock,
    start_table: TableStarter,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
    bots: tuple[int, ...],
):
    """The state this process committed last is played on; a change from elsewhere is read."""
    match = start_table(bots=bots).match
    loads: list[int] = []
    load = services.load_state

    def counted(stored: Match) -> rules.State:
        loads.append(stored.seq)
        return load(stored)

    monkeypatch.setattr(services, "load_state", counted)
    for _ in range(6):
        with django_capture_on_commit_callbacks(execute=True):
            turn = services.play_due_turn(match.pk, now=clock.set(deadline_of(match)))
        assert turn is not None
        assert_log_consistent(match, turn.outcome.state)
    # Only the first turn read the log: each later one played on the last committed state.
    assert len(loads) == 1
    # A move this process did not announce (another process's): read from the log again.
    state = load(reload(match))
    assert state.turn is not None
    services.submit_as_seat(
        match.pk, state.turn, rules.legal_actions(state)[0], reload(match).seq, auto=not bots
    )
    loads.clear()
    turn = services.play_due_turn(match.pk, now=clock.set(deadline_of(match)))
    assert turn is not None
    assert len(loads) == 1
    assert_log_consistent(match, turn.outcome.state)


def test_a_sharded_worker_plays_only_its_own_shares_matches(
    start_table: TableStarter, clock: Clock
):
    matches = [start_table(bots=(1, 2, 3, 4)).match for _ in range(4)]
    shard = due_turns.Shard(matches[0].pk % 2, 2)
    now = clock.set(max(deadline_of(match) for match in matches))
    played = due_turns.advance_due(now=now, shard=shard)
    moved = {match.pk for match in matches if reload(match).seq > match.seq}
    assert moved == {match.pk for match in matches if shard.owns(match.pk)}
    assert played == len(moved) == 2
    # The other share's worker may be down: once its turns are overdue by
    # SHARD_TAKEOVER, this worker plays them too.
    others = [match for match in matches if not shard.owns(match.pk)]
    later = clock.advance((due_turns.SHARD_TAKEOVER - timedelta(milliseconds=1)).total_seconds())
    due_turns.advance_due(now=later, shard=shard)
    assert all(reload(match).seq == match.seq for match in others)
    later = clock.advance(0.001)
    due_turns.advance_due(now=later, shard=shard)
    assert all(reload(match).seq > match.seq for match in others)


def test_a_sharded_worker_leaves_a_live_shards_late_turns_to_it(
    start_table: TableStarter, clock: Clock
):
    matches = [start_table(bots=(1, 2, 3, 4)).match for _ in range(4)]
    shard = due_turns.Shard(matches[0].pk % 2, 2)
    other = due_turns.Shard(1 - shard.index, 2)
    theirs = [match for match in matches if other.owns(match.pk)]
    late = clock.set(max(deadline_of(match) for match in matches) + 2 * due_turns.SHARD_TAKEOVER)
    # The other share's worker is behind, but it runs: its turns stay its own.
    heartbeat.beat_shard(other.index, late - timedelta(seconds=1))
    due_turns.advance_due(now=late, shard=shard)
    assert all(reload(match).seq == match.seq for match in theirs)
    # Nor does it wake for them.
    own = [match for match in matches if shard.owns(match.pk)]
    assert due_turns.next_deadline(shard) == min(deadline_of(match) for match in own)
    # Silent for SHARD_TAKEOVER: its overdue turns are played by this worker.
    later = clock.advance(due_turns.SHARD_TAKEOVER.total_seconds())
    due_turns.advance_due(now=later, shard=shard)
    assert all(reload(match).seq > match.seq for match in theirs)


def test_a_sharded_worker_wakes_for_its_own_turns_and_for_others_long_overdue(
    start_table: TableStarter, clock: Clock
):
    first = start_table(bots=(1, 2, 3, 4)).match
    clock.advance(1.0)
    second = start_table(bots=(1, 2, 3, 4)).match
    while second.pk % 2 == first.pk % 2:
        services.abort_match(second)
        second = start_table(bots=(1, 2, 3, 4)).match
    mine, theirs = due_turns.Shard(second.pk % 2, 2), due_turns.Shard(first.pk % 2, 2)
    assert due_turns.next_deadline(mine) == deadline_of(second)
    assert due_turns.next_deadline(theirs) == deadline_of(first)
    # Alone in its share, the second table's worker still wakes for the first
    # table's turn once it is overdue by the takeover delay.
    services.abort_match(second)
    assert due_turns.next_deadline(mine) == deadline_of(first) + due_turns.SHARD_TAKEOVER
