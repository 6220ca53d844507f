"""Restarts that players hardly notice, proven with kill -9 on the production layout.

- An outage longer than the timer costs no one a turn: the workers, back,
  give the pending turn its time back and the pages show the fresh countdown.
- An event whose committing worker is killed right after its commit (the
  ``BALOOT_TEST_CRASH_AFTER_COMMIT`` hook) still reaches every connected
  page, as itself and before the next event: the surviving worker relays it
  from the outbox. (How soon is measured by ``bench/restart_bench.py``.)
- A killed server's subscriptions to its pages' groups end with its Redis
  connection, while the live servers' stay.
"""

from __future__ import annotations

import asyncio
import re
import time
from datetime import datetime
from pathlib import Path

import pytest
import redis

from baloot_site import environment
from stacks.clients import HttpSession, TableWatcher, close_all
from stacks.servers import Stack, Worker
from stacks.tables import PASSWORD, abort, create_user, events, match_seq, start_tables

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# The seat to act's countdown: milliseconds left when the table was rendered.
COUNTDOWN = re.compile(r'class="countdown[^"]*"[^>]*data-ms="(\d+)"')
CRASHED = re.compile(r"crash hook: match (\d+) event (\d+) committed")


async def wait_until(condition, timeout: float, what: str, step: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(condition):
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        await asyncio.sleep(step)


async def spectator(stack: Stack, name: str) -> str:
    """The cookie of a new user logged in to watch tables."""
    await asyncio.to_thread(create_user, stack, name)
    session = HttpSession(stack.daphnes[0].url)
    await asyncio.to_thread(session.log_in, name, PASSWORD)
    return session.cookie_header


async def watch(stack: Stack, match_ids: list[int], cookie: str) -> list[TableWatcher]:
    """A spectator's table socket on every daphne process for every match, connected."""
    watchers = [
        TableWatcher(daphne.ws_url, pk, cookie, origin=daphne.url)
        for pk in match_ids
        for daphne in stack.daphnes
    ]
    for watcher in watchers:
        await watcher.start()
    return watchers


def db_now(stack: Stack) -> datetime:
    return stack.rows("SELECT now()")[0][0]


def countdown_ms(text: str) -> int | None:
    found = COUNTDOWN.search(text)
    return int(found.group(1)) if found else None


@pytest.mark.asyncio
async def test_an_outage_longer_than_the_timer_costs_no_one_a_turn(
    postgres_url: str, redis_url: str, tmp_path: Path
):
    stack = Stack(
        postgres_url,
        redis_url,
        tmp_path,
        servers=2,
        workers=2,
        extra_env={"WORKER_OUTAGE_SECONDS": "3"},
    )
    stack.prepare()
    stack.start()
    watchers: list[TableWatcher] = []
    started: list[int] = []
    try:
        cookie = await spectator(stack, "outage-watcher")
        [table] = await asyncio.to_thread(
            start_tables, stack, 1, (1, 2, 3, 4), prefix="outage", can_log_in=False
        )
        pk = table.match_id
        started.append(pk)
        watchers = await watch(stack, [pk], cookie)
        for worker in stack.worker_processes:
            worker.kill()
        # The turn had 6 s left when the workers died, however slow the
        # machine was to set the table up.
        await asyncio.to_thread(
            stack.execute,
            "UPDATE games_match SET deadline = now() + interval '6 seconds' WHERE id = %s",
            pk,
        )
        [(seq, deadline, killed_at)] = stack.rows(
            "SELECT seq, deadline, now() FROM games_match WHERE id = %s", pk
        )
        left_at_kill = deadline - killed_at
        # The seat to act now: on a slow machine the timer may already have
        # forced a turn or two while the test set the table up.
        printed = await asyncio.to_thread(
            stack.shell,
            "from games.match.event_log import load_state\n"
            "from games.match.models import Match\n"
            f"print(load_state(Match.objects.get(pk={pk})).turn)\n",
        )
        turn = int(printed.strip().splitlines()[-1])

        # Longer than the whole timer (8 s for a bid): without the fix, the
        # first worker back would force the turn at once.
        await asyncio.sleep(10)
        assert match_seq(stack, pk) == seq
        restarted = time.time()
        back_at = db_now(stack)
        await asyncio.to_thread(stack.start)
        await wait_until(
            lambda: any("deadlines moved on" in w.log() for w in stack.worker_processes),
            60,
            "a worker to give the outage's time back",
        )
        # Every page shows the same event again, with the fresh countdown.
        for watcher in watchers:
            await watcher.wait_for(
                lambda w=watcher: any(f.received >= restarted and f.seq == seq for f in w.frames),
                60,
                "the fresh countdown",
            )
            fresh = next(f for f in watcher.frames if f.received >= restarted and f.seq == seq)
            assert countdown_ms(fresh.text), "the pushed table shows no countdown"

        # The time given back runs out as usual: one forced turn, no sooner
        # than the time the turn had left at the kill, counted from the
        # workers' return. (Without the time given back, the first worker
        # back would have forced it at once.) The bounds below only catch a
        # hang: a slow machine may take long to start the second worker.
        await wait_until(lambda: match_seq(stack, pk) > seq, 120, "the timer to run out")
        number, _kind, seat, auto, _payload = events(stack, pk)[seq]
        assert (number, seat, auto) == (seq + 1, turn, True)
        [(forced_at,)] = stack.rows(
            "SELECT created_at FROM games_event WHERE match_id = %s AND seq = %s", pk, seq + 1
        )
        assert forced_at >= back_at + left_at_kill, "a turn was forced before its time was up"
        print(
            f"\noutage: {left_at_kill.total_seconds():.1f} s were left at the kill; "
            f"the turn was forced {(forced_at - back_at).total_seconds():.1f} s after the return"
        )
    finally:
        await close_all(watchers)
        await asyncio.to_thread(abort, stack, started)
        stack.stop()
    assert stack.tracebacks() == []


@pytest.mark.asyncio
async def test_an_event_whose_committer_is_killed_reaches_every_page_from_the_relay(
    postgres_url: str, redis_url: str, tmp_path: Path
):
    # Bots wait 5 s: until the next move, a page can learn of the crashed
    # commit only from the relay (watchers never ask on their own).
    stack = Stack(postgres_url, redis_url, tmp_path, servers=2, workers=1, bot_delay=5.0)
    stack.prepare()
    doomed = Worker(
        "worker-doomed",
        {**stack.env, "BALOOT_TEST_CRASH_AFTER_COMMIT": "1"},
        tmp_path / "worker-doomed.log",
    )
    stack.start()
    watchers: list[TableWatcher] = []
    started: list[int] = []
    try:
        tables = await asyncio.to_thread(start_tables, stack, 3, (), prefix="commit")
        ids = [table.match_id for table in tables]
        started.extend(ids)
        watchers = await watch(stack, ids, await spectator(stack, "commit-watcher"))
        doomed.start_and_wait()
        # The doomed worker races the spare for every bot move; once it wins
        # one, it dies between the commit and the announcement.
        await wait_until(lambda: not doomed.alive, 120, "the doomed worker to commit and die")
        found = CRASHED.search(doomed.log())
        assert found, doomed.tail()
        pk, seq = int(found.group(1)), int(found.group(2))
        [(committed,)] = stack.rows(
            "SELECT extract(epoch FROM created_at) FROM games_event "
            "WHERE match_id = %s AND seq = %s",
            pk,
            seq,
        )
        delays = []
        for watcher in (w for w in watchers if w.match_id == pk):
            # A bound that only catches a relay that never sends.
            frame = await watcher.wait_for_seq(seq, timeout=60)
            # The page shows this very event, so it was told before the next
            # move existed: by the relay, since its committer died first.
            assert frame.seq == seq, "the page learnt of the event only from the next one"
            delays.append(frame.received - float(committed))
        assert len(delays) == len(stack.daphnes)
        print(
            f"\ncommitted then killed: match {pk} event {seq} shown on "
            f"{len(delays)} pages after {', '.join(f'{d:.2f} s' for d in delays)}"
        )
        # The relay logs after its send and its outbox clean-up: the pages may
        # show the event before the line is written.
        relayed = f"relay: announced match {pk} at event {seq},"
        await wait_until(lambda: relayed in stack.worker_processes[0].log(), 30, "the relay's log")
    finally:
        await close_all(watchers)
        doomed.stop()
        await asyncio.to_thread(abort, stack, started)
        stack.stop()
    assert stack.tracebacks() == []


def subscribed_servers(url: str, match_id: int) -> int:
    """How many server processes hear the match's group: one subscription each."""
    prefix = environment.channel_layers({"REDIS_URL": url})["default"]["CONFIG"]["prefix"]
    client = redis.Redis.from_url(url)
    try:
        [(_name, count)] = client.pubsub_numsub(f"{prefix}__group__match-{match_id}")
        return int(count)
    finally:
        client.close()


@pytest.mark.asyncio
async def test_a_killed_servers_subscriptions_end_with_it(
    postgres_url: str, redis_url: str, tmp_path: Path
):
    stack = Stack(postgres_url, redis_url, tmp_path, servers=2, workers=1, bot_delay=0.3)
    stack.prepare()
    stack.start()
    victim, survivor = stack.daphnes
    watchers: list[TableWatcher] = []
    started: list[int] = []
    try:
        [table] = await asyncio.to_thread(start_tables, stack, 1, (), prefix="groups")
        pk = table.match_id
        started.append(pk)
        watchers = await watch(stack, [pk, pk], await spectator(stack, "group-watcher"))
        assert len(watchers) == 4
        # Two sockets on each server, one subscription per server.
        await wait_until(lambda: subscribed_servers(redis_url, pk) == 2, 10, "two servers")
        # Steady play for a while: memberships need no renewal.
        await asyncio.sleep(5)
        assert subscribed_servers(redis_url, pk) == 2

        victim.kill()
        killed = time.monotonic()
        # Redis drops the victim's subscriptions as its connection closes,
        # with no expiry to wait for. A bound that only catches one that stays.
        await wait_until(lambda: subscribed_servers(redis_url, pk) == 1, 30, "the dead to leave")
        print(
            f"\ngroups: dead server unsubscribed {time.monotonic() - killed:.1f} s after the kill"
        )
        survivors = [w for w in watchers if w.ws_url == survivor.ws_url]
        since = time.time()
        for watcher in survivors:
            await watcher.wait_for(
                lambda w=watcher: any(f.received > since for f in w.frames), 10, "live pushes"
            )
        await asyncio.to_thread(victim.start_and_wait)
        await wait_until(
            lambda: subscribed_servers(redis_url, pk) == 2, 30, "the pages to come back"
        )
    finally:
        await close_all(watchers)
        await asyncio.to_thread(abort, stack, started)
        stack.stop()
    assert stack.tracebacks() == []
