"""Restart benchmark: how soon pages see through crashes, over a run of kill -9s.

Starts the production layout (a PostgreSQL database and a Redis index of its
own, two daphne processes, one worker) with bot tables watched by a
spectator: a WebSocket client on each daphne for each table, and Chromium
showing the first table from daphne-1. Then, ``--crashes`` times:

1. a second worker started with the crash-after-commit hook
   (``BALOOT_TEST_CRASH_AFTER_COMMIT``) races the first for a bot's move,
   commits it and kills itself before announcing it; the surviving worker
   relays it from the outbox. Measured: the time from the commit to the
   event showing on each page watching that table;
2. daphne-1 is killed with kill -9 and started again after 2 to 6 s.
   Measured: the time from its first answer to the Chromium page's socket
   being open again.

Prints the median and maximum of both, how many pages learnt of a crashed
commit only from the next move, and the load average. Asserts nothing.

Run: ``.venv/bin/python bench/restart_bench.py [--crashes 10] [--bot-delay 2]``.
Needs PostgreSQL, Redis, /usr/bin/chromium and Playwright, as the real-world
tests do (tests/realworld/test_restarts.py and test_reconnect.py prove the
behaviour; this measures it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stacks.browser import CHROMIUM  # noqa: E402
from stacks.clients import HttpSession, TableWatcher, close_all  # noqa: E402
from stacks.servers import (  # noqa: E402
    BENCH_REDIS_DB,
    PostgresDatabase,
    Stack,
    Worker,
    flush_redis,
    postgres_problem,
    postgres_server_url,
    redis_problem,
    redis_server_url,
    with_path,
)
from stacks.tables import PASSWORD, abort, create_user, start_tables  # noqa: E402

CRASHED = re.compile(r"crash hook: match (\d+) event (\d+) committed")
# Records when the page's socket opens, on the page's clock (the machine's).
WATCH_SOCKET = """
window.socketOpens = [];
document.addEventListener('htmx:wsOpen', () => window.socketOpens.push(Date.now() / 1000));
"""
# How long any one step may take before the run gives up.
PATIENCE = 300.0


def spread(values: list[float]) -> str:
    if not values:
        return "no samples"
    return (
        f"median {statistics.median(values):.2f} s, max {max(values):.2f} s ({len(values)} samples)"
    )


async def wait_until(condition: Any, what: str, timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what}")
        await asyncio.sleep(0.02)


async def crash_after_commit(
    stack: Stack, watchers: list[TableWatcher], name: str, workdir: Path
) -> tuple[list[float], int, str]:
    """One worker commits a bot's move and dies; returns (delays, pages missed, its log)."""
    doomed = Worker(name, {**stack.env, "BALOOT_TEST_CRASH_AFTER_COMMIT": "1"}, workdir / name)
    await asyncio.to_thread(doomed.start_and_wait)
    try:
        await wait_until(lambda: not doomed.alive, "the doomed worker to commit and die")
    finally:
        doomed.stop()
    found = CRASHED.search(doomed.log())
    if found is None:
        raise SystemExit(f"the doomed worker died without committing:\n{doomed.tail()}")
    pk, seq = int(found.group(1)), int(found.group(2))
    [(committed,)] = stack.rows(
        "SELECT extract(epoch FROM created_at) FROM games_event WHERE match_id = %s AND seq = %s",
        pk,
        seq,
    )
    delays, missed = [], 0
    for watcher in (w for w in watchers if w.match_id == pk):
        frame = await watcher.wait_for_seq(seq, timeout=PATIENCE)
        if frame.seq == seq:
            delays.append(frame.received - float(committed))
        else:
            missed += 1
    return delays, missed, doomed.log()


async def restart_server(
    stack: Stack, watchers: list[TableWatcher], page: Any, rng: random.Random
) -> float:
    """Kill daphne-1 under the page, start it again; returns the page's reconnect delay.

    Returns once the watchers of daphne-1 are connected again too.
    """
    victim = stack.daphnes[0]
    theirs = [w for w in watchers if w.ws_url == victim.ws_url]
    connections = [w.connections for w in theirs]
    before = len(await page.evaluate("window.socketOpens"))
    victim.kill()
    await page.locator("[data-connection]").wait_for(state="visible", timeout=PATIENCE * 1000)
    await asyncio.sleep(rng.uniform(2.0, 6.0))
    victim.start()
    while not await asyncio.to_thread(victim.answers):
        if not victim.alive:
            raise SystemExit(f"daphne-1 died while starting:\n{victim.tail()}")
        await asyncio.sleep(0.02)
    back = time.time()
    await page.wait_for_function(f"window.socketOpens.length > {before}", timeout=PATIENCE * 1000)
    opened = await page.evaluate("window.socketOpens")
    for watcher, count in zip(theirs, connections, strict=True):
        await watcher.wait_for(
            lambda w=watcher, c=count: w.connections > c and w.frames[-1].received >= back,
            PATIENCE,
            "the watchers to connect again",
        )
    return float(opened[-1]) - back


async def measure(stack: Stack, crashes: int, tables: int, seed: int, workdir: Path) -> None:
    from playwright.async_api import async_playwright

    rng = random.Random(seed)
    started = await asyncio.to_thread(start_tables, stack, tables, (), prefix="bench")
    ids = [table.match_id for table in started]
    await asyncio.to_thread(create_user, stack, "bench-watcher")
    session = HttpSession(stack.daphnes[0].url)
    await asyncio.to_thread(session.log_in, "bench-watcher", PASSWORD)
    watchers = [
        TableWatcher(daphne.ws_url, pk, session.cookie_header, origin=daphne.url, keep_text=False)
        for pk in ids
        for daphne in stack.daphnes
    ]
    shown: list[float] = []
    missed = 0
    reconnects: list[float] = []
    try:
        for watcher in watchers:
            await watcher.start()
        async with async_playwright() as driver:
            browser = await driver.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
            )
            context = await browser.new_context(bypass_csp=True)
            await context.add_cookies(
                [
                    {"name": name, "value": value, "url": stack.daphnes[0].url}
                    for name, value in session.cookies.items()
                ]
            )
            page = await context.new_page()
            await page.add_init_script(WATCH_SOCKET)
            await page.goto(f"{stack.daphnes[0].url}/match/{ids[0]}/")
            await page.wait_for_function("window.socketOpens.length > 0")
            for crash in range(1, crashes + 1):
                delays, lost, _log = await crash_after_commit(
                    stack, watchers, f"worker-doomed-{crash}", workdir
                )
                shown.extend(delays)
                missed += lost
                reconnects.append(await restart_server(stack, watchers, page, rng))
                print(
                    f"crash {crash}: event shown after "
                    f"{', '.join(f'{d:.2f}' for d in delays) or '-'} s; "
                    f"page back {reconnects[-1]:.2f} s after its server",
                    flush=True,
                )
            await browser.close()
    finally:
        await close_all(watchers)
        await asyncio.to_thread(abort, stack, ids)
    print()
    print(f"{crashes} crashes, {tables} tables, {len(watchers)} watching sockets")
    print(
        f"crash after commit, commit to page:  {spread(shown)}; shown only by the next move: "
        f"{missed}"
    )
    print(f"kill -9 of a server, back to socket: {spread(reconnects)}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crashes", type=int, default=10)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument(
        "--bot-delay", type=float, default=2.0, help="seconds a bot waits before its move"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    server = postgres_server_url()
    redis = with_path(redis_server_url(), str(BENCH_REDIS_DB))
    for problem in (postgres_problem(server), redis_problem(redis)):
        if problem:
            raise SystemExit(problem)
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"Chromium is needed at {CHROMIUM} (scripts/chromium.sh installs it)")
    database = PostgresDatabase(server, prefix="baloot_bench")
    database.create()
    flush_redis(redis)
    try:
        with tempfile.TemporaryDirectory(prefix="restart-bench-") as workdir:
            stack = Stack(
                database.url, redis, Path(workdir), servers=2, workers=1, bot_delay=args.bot_delay
            )
            stack.prepare()
            stack.start()
            try:
                asyncio.run(measure(stack, args.crashes, args.tables, args.seed, Path(workdir)))
            finally:
                stack.stop()
    finally:
        database.drop()
        if redis_problem(redis) is None:
            flush_redis(redis)


if __name__ == "__main__":
    main()
