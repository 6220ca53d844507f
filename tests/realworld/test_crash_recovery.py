"""kill -9 of a server process and every worker mid-match, ten times over.

After each crash the log is whole and replays; once restarted, bots and
timers carry on from the database alone, the clients of the killed process
reconnect and catch up, and the clients of the surviving one never stop.
At the end no event is missing, doubled or recorded twice.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from stacks.clients import HttpSession, TableWatcher, close_all
from stacks.servers import Stack
from stacks.tables import (
    PASSWORD,
    abort,
    assert_log_intact,
    create_user,
    events,
    match_seq,
    start_tables,
    verify,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

REPETITIONS = 10
LOGGED_EVENT = re.compile(r"match (\d+) event (\d+): ")


def moved_on(stack: Stack, match_id: int, since: int) -> bool:
    """True once the match has an event after ``since``, or has ended."""
    [(seq, status)] = stack.rows("SELECT seq, status FROM games_match WHERE id = %s", match_id)
    return bool(seq > since or status != "playing")


async def wait_until(condition, timeout: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await asyncio.to_thread(condition):
        assert loop.time() < deadline, f"gave up waiting for {what}"
        await asyncio.sleep(0.1)


@pytest.mark.asyncio
async def test_kill_9_mid_match_then_restart_loses_and_doubles_nothing(
    postgres_url: str, redis_url: str, tmp_path: Path
):
    # Bots wait a little so that matches are still running after ten crashes.
    # The one spectator below watches 4 matches on each of the 2 servers: 8
    # sockets, the default share of a watcher. A killed server's sockets keep
    # their leases in Redis until they lapse (games.match.admission, tested on
    # its own), so after each crash the spectator's reconnects would be refused
    # (4429) for most of a minute, while this test crashes the server every few
    # seconds. Its subject is what a crash does to the log and the pushes, so the
    # share leaves room for every lease a crash can leave behind.
    shares = {"TABLE_WATCHING_SOCKETS_PER_USER": str(8 * (REPETITIONS + 1))}
    stack = Stack(
        postgres_url,
        redis_url,
        tmp_path,
        servers=2,
        workers=2,
        bot_delay=0.2,
        extra_env=shares,
    )
    stack.prepare()
    stack.start()
    victim, survivor = stack.daphnes
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    watchers: list[TableWatcher] = []
    try:
        bots = await asyncio.to_thread(start_tables, stack, 3, (), prefix="crash")
        [people] = await asyncio.to_thread(
            start_tables, stack, 1, (1, 2, 3, 4), prefix="late", can_log_in=False
        )
        ids = [table.match_id for table in bots]
        await asyncio.to_thread(create_user, stack, "crash-watcher")
        spectator = HttpSession(survivor.url)
        await asyncio.to_thread(spectator.log_in, "crash-watcher", PASSWORD)
        watchers = [
            TableWatcher(daphne.ws_url, pk, spectator.cookie_header, origin=daphne.url)
            for pk in [*ids, people.match_id]
            for daphne in stack.daphnes
        ]
        for watcher in watchers:
            await watcher.start()

        for repetition in range(1, REPETITIONS + 1):
            where = f"repetition {repetition} (seed {seed})"
            before = {pk: await asyncio.to_thread(match_seq, stack, pk) for pk in ids}
            # Mid-match: some actions in, none of them awaited.
            await wait_until(
                lambda before=before: all(moved_on(stack, pk, before[pk]) for pk in ids),
                60,
                f"bots to move before the crash, {where}",
            )
            await asyncio.sleep(rng.uniform(0.0, 1.0))
            for process in [victim, *stack.worker_processes]:
                process.kill()
            crashed = await asyncio.to_thread(assert_log_intact, stack, [*ids, people.match_id])
            # The people's table: its clock runs out while nothing runs.
            await asyncio.to_thread(
                stack.execute,
                "UPDATE games_match SET deadline = now() WHERE id = %s",
                people.match_id,
            )
            await asyncio.to_thread(stack.start)
            await wait_until(
                lambda crashed=crashed: all(
                    moved_on(stack, pk, crashed[pk]) for pk in [*ids, people.match_id]
                ),
                60,
                f"bots and the timer to resume, {where}",
            )
            now = {pk: await asyncio.to_thread(match_seq, stack, pk) for pk in crashed}
            for watcher in watchers:
                if watcher.ws_url == victim.ws_url:
                    await watcher.wait_for(
                        lambda w=watcher, n=repetition: w.connections == n + 1,
                        60,
                        f"a client of the restarted server to reconnect, {where}",
                    )
                await watcher.wait_for_seq(now[watcher.match_id], timeout=60)
            assert all(w.connections == 1 for w in watchers if w.ws_url == survivor.ws_url)

        all_ids = [*ids, people.match_id]
        await asyncio.to_thread(abort, stack, all_ids)
        final = await asyncio.to_thread(assert_log_intact, stack, all_ids)
        for watcher in watchers:
            await watcher.wait_for_seq(final[watcher.match_id], timeout=60)
            assert watcher.max_seq == final[watcher.match_id]
        # The people's first timer-forced turns are there, each once.
        assert any(auto for _s, _k, _seat, auto, _p in events(stack, people.match_id))
        assert "replay consistently" in await asyncio.to_thread(verify, stack)
    finally:
        await close_all(watchers)
        stack.stop()

    # A worker killed between its commit and its log line may not have
    # logged its last action; no action may be logged twice or made up.
    logged: Counter[tuple[int, int]] = Counter()
    for process in stack.worker_processes:
        for match_id, seq in LOGGED_EVENT.findall(process.log()):
            logged[int(match_id), int(seq)] += 1
    recorded = {
        (pk, seq) for pk in all_ids for seq, kind, *_rest in events(stack, pk) if kind == "action"
    }
    assert max(logged.values()) == 1, "an action was recorded twice"
    assert set(logged) <= recorded
    assert len(recorded - set(logged)) <= REPETITIONS * len(stack.worker_processes)
    assert stack.tracebacks() == []
