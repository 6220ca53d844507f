"""Redis restarted under connected clients: they stay connected and catch up.

A Redis of the test's own, on a free port and started the way
``scripts/services.sh`` starts the local one, is shut down (``redis-cli
shutdown nosave``, so every subscription is gone) and started again while
bots play and clients of two daphne processes watch. It is not the shared
local Redis, which the tests running beside this one in other processes use. The
moves made meanwhile are stored in PostgreSQL; once Redis is back, each
daphne process subscribes again to its sockets' groups, and every client
must show the match as it is and keep following it, on the socket it had.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from stacks.clients import HttpSession, TableWatcher, close_all
from stacks.servers import Stack, redis_problem
from stacks.tables import (
    PASSWORD,
    abort,
    assert_log_intact,
    create_user,
    match_seq,
    start_tables,
)
from tests.support.services import service_missing

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def redis_start(port: int, folder: Path) -> list[str]:
    """How ``scripts/services.sh`` starts the local Redis, here on ``port`` in ``folder``."""
    return [
        "redis-server",
        "--daemonize", "yes",
        "--bind", "127.0.0.1",
        "--port", str(port),
        "--save", "",
        "--appendonly", "no",
        "--dir", str(folder),
        "--logfile", str(folder / "redis.log"),
    ]  # fmt: skip


def wait_for_redis(url: str, up: bool, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while (redis_problem(url) is None) != up:
        assert time.monotonic() < deadline, f"Redis did not go {'up' if up else 'down'}"
        time.sleep(0.1)


def start_redis(url: str, folder: Path) -> None:
    port = urlsplit(url).port or 6379
    subprocess.run(redis_start(port, folder), check=True, capture_output=True, timeout=30)
    wait_for_redis(url, up=True)


def stop_redis(url: str) -> None:
    port = str(urlsplit(url).port or 6379)
    subprocess.run(
        ["redis-cli", "-h", "127.0.0.1", "-p", port, "shutdown", "nosave"],
        capture_output=True,
        timeout=30,
        check=False,
    )
    wait_for_redis(url, up=False)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def restartable_redis(redis_url: str, tmp_path: Path) -> Iterator[str]:
    """A Redis of this test's own that it may stop and start; stopped whatever happens."""
    if not (shutil.which("redis-server") and shutil.which("redis-cli")):
        service_missing("restarting Redis needs redis-server and redis-cli on this machine")
    folder = tmp_path / "redis"
    folder.mkdir()
    url = f"redis://127.0.0.1:{free_port()}/0"
    start_redis(url, folder)
    try:
        yield url
    finally:
        if redis_problem(url) is None:
            stop_redis(url)


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

        await asyncio.to_thread(stop_redis, restartable_redis)
        down = {pk: await asyncio.to_thread(match_seq, stack, pk) for pk in ids}
        # The worker keeps recording moves in PostgreSQL while Redis is away.
        deadline = time.monotonic() + 60
        while not await asyncio.to_thread(
            lambda: all(match_seq(stack, pk) > down[pk] + 2 for pk in ids)
        ):
            assert time.monotonic() < deadline, "the worker stopped while Redis was down"
            await asyncio.sleep(0.1)
        await asyncio.to_thread(start_redis, restartable_redis, tmp_path / "redis")

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
