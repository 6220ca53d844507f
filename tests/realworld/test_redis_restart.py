"""Redis restarted under connected clients: they stay connected and catch up.

The local Redis is shut down (``redis-cli shutdown nosave``, so every
subscription is gone) and started again the way ``scripts/services.sh``
starts it, while bots play and clients of two daphne processes watch. The
moves made meanwhile are stored in PostgreSQL; once Redis is back, each
daphne process subscribes again to its sockets' groups, and every client
must show the match as it is and keep following it, on the socket it had.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.realworld.clients import HttpSession, TableWatcher, close_all
from tests.realworld.tables import (
    PASSWORD,
    abort,
    assert_log_intact,
    create_user,
    match_seq,
    start_tables,
)
from tests.support.servers import Stack, redis_problem
from tests.support.services import service_missing

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def redis_start(port: int) -> list[str]:
    """The command ``scripts/services.sh`` starts the local Redis with, on ``port``."""
    return [
        "redis-server",
        "--daemonize", "yes",
        "--bind", "127.0.0.1", "-::1",
        "--port", str(port),
        "--save", "",
        "--appendonly", "no",
        "--dir", "/var/lib/redis",
        "--logfile", "/var/log/redis/ci.log" if port == 6379 else f"/var/log/redis/ci-{port}.log",
    ]  # fmt: skip


def wait_for_redis(url: str, up: bool, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while (redis_problem(url) is None) != up:
        assert time.monotonic() < deadline, f"Redis did not go {'up' if up else 'down'}"
        time.sleep(0.1)


def start_redis(url: str) -> None:
    for folder in ("/var/lib/redis", "/var/log/redis"):
        Path(folder).mkdir(parents=True, exist_ok=True)
    port = urlsplit(url).port or 6379
    subprocess.run(redis_start(port), check=True, capture_output=True, timeout=30)
    wait_for_redis(url, up=True)


@pytest.fixture
def restartable_redis(redis_url: str) -> Iterator[str]:
    """The local Redis, when this machine can stop and start it; restarted whatever happens."""
    parts = urlsplit(redis_url)
    if parts.hostname not in ("127.0.0.1", "localhost"):
        service_missing(f"restarting Redis needs a local one, not {redis_url}")
    if not (shutil.which("redis-server") and shutil.which("redis-cli")):
        service_missing("restarting Redis needs redis-server and redis-cli on this machine")
    try:
        yield redis_url
    finally:
        if redis_problem(redis_url) is not None:
            start_redis(redis_url)


@pytest.mark.asyncio
async def test_clients_reconnect_and_resync_after_redis_restarts(
    postgres_url: str, restartable_redis: str, tmp_path: Path
):
    stack = Stack(postgres_url, restartable_redis, tmp_path, servers=2, workers=1, bot_delay=0.2)
    stack.prepare()
    stack.start()
    watchers: list[TableWatcher] = []
    try:
        tables = await asyncio.to_thread(start_tables, stack, 2, (), prefix="redis")
        ids = [table.match_id for table in tables]
        await asyncio.to_thread(create_user, stack, "redis-watcher")
        spectator = HttpSession(stack.daphnes[0].url)
        await asyncio.to_thread(spectator.log_in, "redis-watcher", PASSWORD)
        watchers = [
            TableWatcher(daphne.ws_url, pk, spectator.cookie_header, origin=daphne.url)
            for pk in ids
            for daphne in stack.daphnes
        ]
        for watcher in watchers:
            await watcher.start()
        for watcher in watchers:
            await watcher.wait_for_seq(5, timeout=60)

        port = str(urlsplit(restartable_redis).port or 6379)
        subprocess.run(
            ["redis-cli", "-h", "127.0.0.1", "-p", port, "shutdown", "nosave"],
            capture_output=True,
            timeout=30,
            check=False,
        )
        await asyncio.to_thread(wait_for_redis, restartable_redis, False)
        down = {pk: await asyncio.to_thread(match_seq, stack, pk) for pk in ids}
        # The worker keeps recording moves in PostgreSQL while Redis is away.
        deadline = time.monotonic() + 60
        while not await asyncio.to_thread(
            lambda: all(match_seq(stack, pk) > down[pk] + 2 for pk in ids)
        ):
            assert time.monotonic() < deadline, "the worker stopped while Redis was down"
            await asyncio.sleep(0.1)
        await asyncio.to_thread(start_redis, restartable_redis)

        # Every client catches up with what happened while Redis was down...
        missed = {pk: await asyncio.to_thread(match_seq, stack, pk) for pk in ids}
        for watcher in watchers:
            await watcher.wait_for_seq(missed[watcher.match_id], timeout=60)
        # ...and keeps following the match from there.
        for watcher in watchers:
            await watcher.wait_for_seq(missed[watcher.match_id] + 3, timeout=60)
        await asyncio.to_thread(abort, stack, ids)
        final = await asyncio.to_thread(assert_log_intact, stack, ids)
        for watcher in watchers:
            await watcher.wait_for_seq(final[watcher.match_id], timeout=60)
    finally:
        await close_all(watchers)
        stack.stop()
    # Losing Redis ends no socket: its consumer waits on a queue in its own
    # process, which the layer fills again once it has subscribed again.
    assert [watcher.connections for watcher in watchers] == [1] * len(watchers)
