"""``make run``'s script: daphne with the worker inside it, or beside it with Redis.

Without ``REDIS_URL`` the script starts daphne alone, with the worker running
inside it; with Redis it starts ``run_worker`` beside daphne, and never leaves
the worker behind.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.processes import ROOT, Site, wait_until
from tests.support.services import reachable, redis_url, service_missing

# A Redis database index of these tests' own.
RUN_REDIS_DB = 12


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("run") / "db.sqlite3"
    Site(f"sqlite:///{path}").manage("migrate", "--noinput")
    return path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (Linux /proc)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except FileNotFoundError:
        return []
    return [int(word) for word in text.split()]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def command_of(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def start_run(
    migrated: Path, tmp_path: Path, processes: int, **env: str
) -> tuple[subprocess.Popen[bytes], int]:
    """scripts/run.sh serving a fresh database, once it has ``processes`` children listening."""
    database = tmp_path / "db.sqlite3"
    shutil.copy(migrated, database)
    port = free_port()
    environment = {
        **Site(f"sqlite:///{database}").env,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        **env,
    }
    with (tmp_path / "run.log").open("wb") as log:
        script = subprocess.Popen(
            [str(ROOT / "scripts" / "run.sh")],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    wait_until(lambda: listening(port) and len(children(script.pid)) == processes, 60, "run.sh")
    return script, port


def stop_run(script: subprocess.Popen[bytes]) -> None:
    if script.poll() is None:
        os.killpg(script.pid, signal.SIGKILL)
        script.wait()


@pytest.fixture
def run(migrated: Path, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int, int]]:
    """scripts/run.sh with Redis; yields it, daphne's pid and the worker's pid."""
    url = redis_url().rsplit("/", 1)[0] + f"/{RUN_REDIS_DB}"
    if not reachable(url):
        service_missing(f"Redis is needed at {url}")
    # With Redis and DEBUG off the settings require the channel layer's key
    # (issue 27, M5); the script passes it to daphne and the worker alike.
    key = secrets.token_urlsafe(32)
    script, _port = start_run(migrated, tmp_path, 2, REDIS_URL=url, CHANNEL_ENCRYPTION_KEY=key)
    try:
        kids = {("baloot_site.serve" in command_of(pid)): pid for pid in children(script.pid)}
        yield script, kids[True], kids[False]
    finally:
        stop_run(script)


def test_without_redis_the_worker_runs_inside_daphne(migrated: Path, tmp_path: Path):
    script, _port = start_run(migrated, tmp_path, 1)
    try:
        (server,) = children(script.pid)
        assert "baloot_site.serve" in command_of(server)
        assert b"WORKER_IN_SERVER=1" in Path(f"/proc/{server}/environ").read_bytes()
        script.send_signal(signal.SIGTERM)
        assert script.wait(timeout=30) != 0
        assert not alive(server)
    finally:
        stop_run(script)


@pytest.mark.redis
@pytest.mark.parametrize("ctrl_c", [False, True], ids=["sigterm", "ctrl-c"])
def test_stopping_the_run_stops_daphne_and_the_worker(
    run: tuple[subprocess.Popen[bytes], int, int], ctrl_c: bool
):
    script, server, worker = run
    assert "run_worker" in command_of(worker)
    if ctrl_c:
        # A terminal's Ctrl-C interrupts the whole foreground process group.
        os.killpg(script.pid, signal.SIGINT)
    else:
        script.send_signal(signal.SIGTERM)
    assert script.wait(timeout=30) != 0
    assert not alive(server)
    assert not alive(worker)


@pytest.mark.redis
def test_a_worker_that_dies_takes_the_run_down_with_it(
    run: tuple[subprocess.Popen[bytes], int, int],
):
    script, server, worker = run
    os.kill(worker, signal.SIGKILL)
    assert script.wait(timeout=30) != 0
    assert not alive(server)
