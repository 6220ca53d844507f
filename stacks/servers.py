"""Real server processes: daphne and the worker, run as in production.

The tests in ``tests/realworld`` and ``tests/browser`` and the live
benchmarks in ``bench/`` start the site exactly as the README tells an
operator to: ``daphne baloot_site.asgi:application`` processes and
``manage.py run_worker`` beside them, configured by environment variables
alone (DEBUG off, a secret key, allowed hosts, DATABASE_URL, REDIS_URL).
Two layouts are used:

- the production stack: a dedicated PostgreSQL database (created, migrated
  and dropped here) and a dedicated Redis database index, shared by several
  daphne processes and workers;
- the embedded default: one daphne process on a SQLite file with the
  in-memory channel layer and the worker inside it (``scripts/run.sh``), so
  such a stack has no worker process of its own.

Every process writes to its own log file, so that a test can look for
tracebacks and a failure can show what the server said.
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import http.client
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# Redis database indexes of their own, so that flushing them never touches
# what a developer keeps in database 0. Each parallel test process (pytest-xdist
# names them gw0, gw1, ...) has two indexes of its own, counting down from 13,
# so that one process's flush never empties another's stack: TEST_REDIS_DB for
# its stacks, and SPARE_REDIS_DB for a module that needs one nothing else uses.
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
TEST_REDIS_DB = 13 - 2 * _WORKER
SPARE_REDIS_DB = TEST_REDIS_DB - 1
# Engineers sharing one Redis server give each benchmark run an index of its own.
BENCH_REDIS_DB = int(os.environ.get("BENCH_REDIS_DB", "14"))
# How long a process may take to answer after it was started: a bound that
# only catches a hang, since a loaded machine can take a minute or more.
START_TIMEOUT = 180.0
# Held while collecting the static files (Stack.prepare), one per checkout.
COLLECT_LOCK = (
    Path(tempfile.gettempdir())
    / f"baloot-collectstatic-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}.lock"
)
# Settings the environment may carry that must not leak into the servers.
SITE_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    "DJANGO_HTTPS",
    "WORKER_IN_SERVER",
    "BOT_DELAY_SECONDS",
    "WORKER_INTERVAL",
    "WORKER_OUTAGE_SECONDS",
    "CHANNEL_GROUP_EXPIRY",
    "CHANNEL_ENCRYPTION_KEY",
    "BALOOT_TEST_CRASH_AFTER_COMMIT",
)

# collectstatic writes to the project's STATIC_ROOT: once per run is enough.
_collected = False
# A SQLite file with every migration applied and nothing else, made by the
# first SQLite stack of this process and copied by every later one: migrating
# costs seconds, copying a file milliseconds.
_migrated_sqlite: Path | None = None
# Every process started here, so that an interrupted run leaves none behind.
_RUNNING: set[ServerProcess] = set()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def postgres_server_url() -> str:
    """The maintenance database of the PostgreSQL server the tests may create databases on.

    The server is TEST_POSTGRES_URL's or DATABASE_URL's, else the local one;
    the database named there need not exist, as with pytest-django.
    """
    url = os.environ.get("TEST_POSTGRES_URL") or os.environ.get("DATABASE_URL") or ""
    if not url.startswith(("postgres://", "postgresql://")):
        return DEFAULT_POSTGRES_URL
    return with_path(url, "postgres")


def redis_server_url() -> str:
    """The Redis server the tests and benchmarks use (REDIS_URL, else the local one)."""
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def with_path(url: str, path: str) -> str:
    """``url`` with its path (the database name or index) replaced by ``path``."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + path, parts.query, parts.fragment))


def postgres_problem(url: str) -> str | None:
    """Why PostgreSQL at ``url`` cannot be used, or None when it answers."""
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.Error as error:
        return f"PostgreSQL is needed: nothing usable answers at {url} ({error})".strip()
    return None


def redis_problem(url: str) -> str | None:
    """Why Redis at ``url`` cannot be used, or None when it answers PING."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except redis.RedisError as error:
        return f"Redis is needed: nothing usable answers at {url} ({error})"
    return None


class PostgresDatabase:
    """A database of its own on the PostgreSQL server, created and dropped here."""

    def __init__(self, server_url: str, prefix: str = "baloot_realworld") -> None:
        self.server_url = server_url
        self.name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
        self.url = with_path(server_url, self.name)

    def create(self) -> None:
        import psycopg

        with psycopg.connect(self.server_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.server_url, autocommit=True) as admin:
            # FORCE: a killed server may leave a connection behind for a moment.
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def flush_redis(url: str) -> None:
    """Empty the one Redis database ``url`` names."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


class ServerProcess:
    """One long-running process of the site, logging to a file of its own."""

    def __init__(self, name: str, argv: Sequence[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.argv = list(argv)
        self.env = env
        self.log_path = log
        self.popen: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def __hash__(self) -> int:
        return id(self)

    @property
    def pid(self) -> int:
        assert self.popen is not None, f"{self.name} was never started"
        return self.popen.pid

    def start(self) -> None:
        """Start the process; its output is appended to its log file."""
        assert not self.alive, f"{self.name} is already running"
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"----- {self.name}: start {self.starts}\n".encode())
            log.flush()
            self.popen = subprocess.Popen(
                self.argv,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        _RUNNING.add(self)

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def kill(self) -> None:
        """kill -9: no clean-up, no goodbye, as in a crash."""
        if self.alive:
            assert self.popen is not None
            self.popen.send_signal(signal.SIGKILL)
            self.popen.wait(timeout=30)
        _RUNNING.discard(self)

    def stop(self, timeout: float = 20) -> int | None:
        """SIGTERM, then SIGKILL if it lingers; returns the exit status."""
        if self.popen is None:
            return None
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=30)
        _RUNNING.discard(self)
        return self.popen.returncode

    def log(self) -> str:
        """Everything the process printed, over all its starts."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def wait_ready(self, ready: Any, timeout: float = START_TIMEOUT) -> None:
        """Poll ``ready()`` until true; raises RuntimeError if the process dies or is slow."""
        deadline = time.monotonic() + timeout
        while not ready():
            if not self.alive:
                raise RuntimeError(f"{self.name} exited while starting:\n{self.tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not answer in {timeout:.0f} s:\n{self.tail()}")
            time.sleep(0.1)


class Daphne(ServerProcess):
    """A daphne process serving the site (or a benchmark's wrapper of it) on one port."""

    def __init__(
        self, name: str, env: dict[str, str], log: Path, app: str = "baloot_site.asgi:application"
    ) -> None:
        self.port = free_port()
        # As scripts/run.sh starts it: daphne on uvloop's event loop.
        argv = [sys.executable, "-m", "baloot_site.serve", "--bind", "127.0.0.1"]
        argv += ["--port", str(self.port), app]
        super().__init__(name, argv, env, log)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def answers(self) -> bool:
        """True when the home page comes back without a server error.

        A redirect counts as an answer and is not followed: with
        DJANGO_HTTPS=1 the site sends plain HTTP to an https:// address
        that only the proxy in front of it serves.
        """
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            connection.request("GET", "/")
            return connection.getresponse().status < 500
        except OSError:
            return False
        finally:
            connection.close()

    def start_and_wait(self) -> None:
        self.start()
        self.wait_ready(self.answers)


class Worker(ServerProcess):
    """``manage.py run_worker``: bots' turns and expired timers (with ``shard``, (K, N):
    the matches whose id modulo N is K)."""

    def __init__(
        self, name: str, env: dict[str, str], log: Path, shard: tuple[int, int] | None = None
    ) -> None:
        argv = [sys.executable, "manage.py", "run_worker"]
        if shard is not None:
            argv += ["--shard", str(shard[0]), "--shards", str(shard[1])]
        super().__init__(name, argv, env, log)

    def start_and_wait(self) -> None:
        started_before = self.log().count("worker: started")
        self.start()
        self.wait_ready(lambda: self.log().count("worker: started") > started_before)


@dataclass
class Stack:
    """The site's processes on one database and channel layer."""

    database_url: str
    redis_url: str | None
    workdir: Path
    servers: int = 2
    workers: int = 2
    bot_delay: float = 0.05
    worker_interval: float = 0.05
    app: str = "baloot_site.asgi:application"
    # The workers share the matches out (run_worker --shard), rather than race for them.
    sharded: bool = False
    extra_env: dict[str, str] = field(default_factory=dict)
    daphnes: list[Daphne] = field(init=False, default_factory=list)
    worker_processes: list[Worker] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        if self.redis_url is None and self.workers:
            raise ValueError("without Redis the worker runs inside daphne: workers=0")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.env = site_environment(
            self.database_url,
            self.redis_url,
            bot_delay=self.bot_delay,
            worker_interval=self.worker_interval,
            **self.extra_env,
        )
        self.daphnes = [
            Daphne(f"daphne-{i}", self.env, self.workdir / f"daphne-{i}.log", self.app)
            for i in range(1, self.servers + 1)
        ]
        self.worker_processes = [
            Worker(
                f"worker-{i}",
                self.env,
                self.workdir / f"worker-{i}.log",
                (i - 1, self.workers) if self.sharded and self.workers > 1 else None,
            )
            for i in range(1, self.workers + 1)
        ]

    @property
    def processes(self) -> list[ServerProcess]:
        return [*self.daphnes, *self.worker_processes]

    def prepare(self) -> None:
        """Migrate the database and collect the static files the pages link to.

        A new SQLite file is a copy of this process's first migrated one.
        """
        global _collected, _migrated_sqlite
        sqlite = sqlite_file(self.database_url)
        fresh = sqlite if sqlite is not None and not sqlite.exists() else None
        if fresh is not None and _migrated_sqlite is not None:
            shutil.copyfile(_migrated_sqlite, fresh)
        else:
            self.manage("migrate", "--noinput")
            if fresh is not None and _migrated_sqlite is None:
                template = Path(tempfile.mkdtemp(prefix="baloot-migrated-")) / "db.sqlite3"
                shutil.copyfile(fresh, template)
                atexit.register(shutil.rmtree, template.parent, True)
                _migrated_sqlite = template
        if not _collected:
            # DEBUG is off, so pages need the hashed names of collected files.
            # One collectstatic at a time per checkout: two test runs writing
            # the same STATIC_ROOT at once delete each other's files.
            with COLLECT_LOCK.open("w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                self.manage("collectstatic", "--noinput", "--verbosity", "0")
            _collected = True

    def start(self) -> None:
        """Start every process and wait until each answers; stops them all on failure."""
        try:
            for process in self.processes:
                if not process.alive:
                    process.start_and_wait()  # type: ignore[attr-defined]
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        for process in self.processes:
            process.stop()

    def manage(self, *args: str, timeout: float = 300) -> str:
        """Run a ``manage.py`` command in the servers' environment; returns its output.

        Raises RuntimeError with the output when the command fails.
        """
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(
                f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}"
            )
        return result.stdout

    def shell(self, code: str, timeout: float = 300) -> str:
        """Run Python ``code`` in a fresh Django process of the stack; returns what it printed."""
        return self.manage("shell", "--no-imports", "-c", code, timeout=timeout)

    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Read the stack's database directly, as an outside observer (``%s`` placeholders)."""
        return query(self.database_url, sql, params)

    def execute(self, sql: str, *params: Any) -> None:
        """Change the database behind the servers' backs (``%s`` placeholders).

        Only for what a test must arrange that no page offers, such as a
        clock that ran out while nothing was running.
        """
        execute(self.database_url, sql, params)

    def logs(self) -> dict[str, str]:
        return {process.name: process.log() for process in self.processes}

    def tracebacks(self) -> list[str]:
        """The tracebacks any process of the stack logged, with the process's name."""
        found = []
        for name, text in self.logs().items():
            for chunk in text.split("Traceback (most recent call last)")[1:]:
                found.append(f"{name}: Traceback{chunk[:2000]}")
        return found


def site_environment(
    database_url: str,
    redis_url: str | None,
    *,
    bot_delay: float,
    worker_interval: float,
    **extra: str,
) -> dict[str, str]:
    """The environment of a production-like server: DEBUG off, a key, hosts, services."""
    env = {k: v for k, v in os.environ.items() if k not in SITE_VARIABLES}
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=database_url,
        BOT_DELAY_SECONDS=str(bot_delay),
        WORKER_INTERVAL=str(worker_interval),
        PYTHONUNBUFFERED="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
        # One channel-layer key per stack, shared by its processes and commands.
        env["CHANNEL_ENCRYPTION_KEY"] = secrets.token_urlsafe(32)
    else:
        # One process holds the in-memory layer, and the worker runs in it,
        # as scripts/run.sh arranges.
        env["WORKER_IN_SERVER"] = "1"
    env.update(extra)
    return env


def sqlite_file(database_url: str) -> Path | None:
    """The file a ``sqlite:///`` URL names, or None for another database."""
    if database_url.startswith("sqlite:///"):
        return Path(database_url.removeprefix("sqlite:///"))
    return None


def query(database_url: str, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    """Run one read query on PostgreSQL or SQLite; ``%s`` marks the parameters."""
    if database_url.startswith("sqlite:///"):
        path = database_url.removeprefix("sqlite:///")
        with sqlite3.connect(path, timeout=30) as db:
            return db.execute(sql.replace("%s", "?"), tuple(params)).fetchall()
    import psycopg

    with psycopg.connect(database_url) as db:
        return db.execute(sql, tuple(params)).fetchall()


def execute(database_url: str, sql: str, params: Iterable[Any] = ()) -> None:
    """Run one writing statement on PostgreSQL or SQLite and commit it."""
    if database_url.startswith("sqlite:///"):
        path = database_url.removeprefix("sqlite:///")
        with sqlite3.connect(path, timeout=30) as db:
            db.execute(sql.replace("%s", "?"), tuple(params))
        return
    import psycopg

    with psycopg.connect(database_url) as db:
        db.execute(sql, tuple(params))


@atexit.register
def _stop_leftovers() -> None:
    for process in list(_RUNNING):
        process.stop(timeout=5)
