"""Bot tables on real server processes, watched by a WebSocket client per seat.

Shared by ``live_bench.py`` and ``load_bench.py``. It starts the site's
processes (``stacks.servers``), seats four users at each of N
tables and lets the bot play for all of them (each seat is "away"), so that
every seat's client receives its own rendering of every move, as people
would. After a warm-up it measures, for a fixed time:

- actions per second: actions recorded by the workers in the window;
- action-to-push latency: from an action's ``created_at`` (stamped by the
  worker before it commits) to the first frame at each seat's client that
  shows that action or a later one; p50 and p99 over every (client, action);
- errors: sockets that closed or failed, and tracebacks in the servers' logs;
- events lost: (client, action) pairs that client has still not shown two
  minutes after the tables stop (it waits no longer once every client shows
  its match's last event). It must be 0;
- push size: the median size of the frames pushed after each socket's
  first (which is the whole table on connecting);
- first load: the table page and the static files it links, gzipped as
  whitenoise serves them (the page itself compressed here, as a proxy would).

The embedded default has no worker process: its worker runs inside daphne,
so the tables are stopped by giving every match a far deadline.

Everything runs on 127.0.0.1 and stops by itself.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import signal
import statistics
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The wrapper that runs a server process under cProfile (``--profile``).
PROFILED = str(ROOT / "bench" / "profiled.py")
# The wrapper that notes a server process's collector pauses (``--gc-pauses``).
GC_PAUSES = str(ROOT / "bench" / "gc_pauses.py")
# Both open their window on SIGUSR1 and write what they noted on SIGUSR2.
WRAPPERS = (PROFILED, GC_PAUSES)
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from baloot_site.collector import tune_for_server  # noqa: E402
from stacks.servers import (  # noqa: E402
    BENCH_REDIS_DB,
    PostgresDatabase,
    Stack,
    flush_redis,
    postgres_problem,
    postgres_server_url,
    redis_problem,
    redis_server_url,
    with_path,
)

SEQ = re.compile(rb'data-seq="(\d+)"')
# Connections are opened this many at a time: a steady stream of arrivals,
# since each handshake waits for a render in the server process.
CONNECT_BATCH = 10
# After the workers stop, clients get this long at most to show the last
# event of their match; whatever they have not shown by then is lost.
MAX_GRACE_SECONDS = 120.0


@dataclass
class Client:
    """One seat's table socket: the first time it showed each event number."""

    match_id: int
    url: str
    cookie: str
    origin: str
    shown: list[tuple[int, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    connected: bool = False
    # The size in bytes of every frame after each connection's first.
    push_sizes: list[int] = field(default_factory=list)

    async def run(self, stop: asyncio.Event) -> None:
        """Read frames until ``stop``; reconnect after a failure, as the page does."""
        while not stop.is_set():
            try:
                await self._read()
            except (OSError, websockets.WebSocketException, TimeoutError) as error:
                self.errors.append(repr(error))
                await asyncio.sleep(0.5)

    async def _read(self) -> None:
        headers = {"Cookie": self.cookie, "Origin": self.origin}
        async with connect(
            f"{self.url}/ws/match/{self.match_id}/",
            additional_headers=headers,
            open_timeout=60,
            max_size=2**22,
        ) as socket:
            self.connected = True
            first = True
            # No timeout per frame: the measuring ends by cancelling this task,
            # and a timer and a task for each of some thousand frames a second
            # made this process late in noting when they came.
            while True:
                message = await socket.recv(decode=False)
                received = time.time()
                if not first:
                    self.push_sizes.append(len(message))
                first = False
                found = SEQ.search(message[:4000])
                if found is None:
                    self.errors.append("a frame without an event number")
                    continue
                seq = int(found.group(1))
                if not self.shown or seq > self.shown[-1][0]:
                    self.shown.append((seq, received))

    def first_showing(self, seq: int) -> float | None:
        """When this client first showed event ``seq`` or a later one."""
        for shown, at in self.shown:
            if shown >= seq:
                return at
        return None


@dataclass
class Figures:
    label: str
    tables: int
    clients: int
    seconds: float
    actions: int
    latencies: list[float]
    errors: int
    lost: int
    echo: list[float] = field(default_factory=list)
    error_samples: list[str] = field(default_factory=list)
    push_sizes: list[int] = field(default_factory=list)
    first_load: tuple[int, int] | None = None
    # CPU seconds each server process used in the measured window.
    cpu: dict[str, float] = field(default_factory=dict)
    # How much later than its wait each bot's turn in the window was recorded.
    turns_late: list[float] = field(default_factory=list)

    def cpu_line(self) -> str:
        """CPU per action of each kind of server process, in milliseconds."""
        if not self.cpu or not self.actions:
            return "CPU per action: not measured"
        kinds: dict[str, float] = {}
        for name, seconds in self.cpu.items():
            kind = name.rsplit("-", 1)[0]
            kinds[kind] = kinds.get(kind, 0.0) + seconds
        shares = ", ".join(
            f"{kind} {seconds / self.actions * 1000:.1f} ms ({seconds / self.seconds:.2f} cores)"
            for kind, seconds in kinds.items()
        )
        return f"CPU per action (all processes of a kind together): {shares}"

    @property
    def median_push(self) -> float:
        return statistics.median(self.push_sizes) if self.push_sizes else float("nan")

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        return (
            f"{self.label:<28} {self.tables:>6} {self.clients:>7} {self.actions_per_second:>10.1f}"
            f" {percentile(self.latencies, 50):>8.1f} {percentile(self.latencies, 99):>8.1f}"
            f" {self.errors:>6} {self.lost:>5} {self.median_push:>9.0f}"
        )


def late_line(figures: Figures, bot_delay: float) -> str:
    """How far behind the bots' turns were: the worker's backlog."""
    if not figures.turns_late:
        return "bots' turns: none measured"
    return (
        f"bots' turns came {percentile(figures.turns_late, 50):.0f} ms (median),"
        f" {percentile(figures.turns_late, 90):.0f} ms (p90) later than their {bot_delay} s wait"
    )


HEADER = (
    f"{'stack':<28} {'tables':>6} {'clients':>7} {'actions/s':>10}"
    f" {'p50 ms':>8} {'p99 ms':>8} {'errors':>6} {'lost':>5} {'push B':>9}"
)


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile of ``values`` in milliseconds (nearest rank); NaN if empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank] * 1000


SETUP = """
import json
from datetime import timedelta
from django.utils import timezone
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from games.match import services
from games.match.models import Match

count, prefix = {count}, {prefix!r}
tables = {{}}
for t in range(count):
    users = {{n: User.objects.create_user(f"{{prefix}}{{t}}s{{n}}") for n in (1, 2, 3, 4)}}
    match = services.create_match(users[1])
    for n in (2, 3, 4):
        services.take_seat(users[n], match, n)
    services.start_match(users[1], match)
    # Nothing moves until every client is connected (GO below).
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(days=1))
    cookies = []
    for n, user in users.items():
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        cookies.append(session.session_key)
    tables[match.pk] = cookies
print(json.dumps(tables))
"""


GO = """
from datetime import timedelta
from django.db import transaction
from django.utils import timezone
from games.match.models import Match, Seat

# Every seated player steps away at once (what services.leave_seat does, in
# bulk): the bot plays for each seat at its own pace. Table i's first turn
# falls due i * stagger / N seconds after the first table's.
match_ids, bot_delay, stagger = {match_ids!r}, {bot_delay}, {stagger}
with transaction.atomic():
    Seat.objects.filter(match_id__in=match_ids).update(away=True)
    now = timezone.now()
    for i, match_id in enumerate(match_ids):
        offset = bot_delay + i * stagger / len(match_ids)
        Match.objects.filter(pk=match_id).update(deadline=now + timedelta(seconds=offset))
"""


FREEZE = """
from datetime import timedelta
from django.utils import timezone
from games.match.models import Match

Match.objects.filter(pk__in={match_ids!r}).update(deadline=timezone.now() + timedelta(days=1))
"""


def first_load(url: str, cookie: str, match_id: int) -> tuple[int, int]:
    """The table page and every file it links: (bytes as sent, bytes gzipped)."""

    def fetch(path: str) -> tuple[bytes, str]:
        request = urllib.request.Request(
            url + path, headers={"Cookie": cookie, "Accept-Encoding": "gzip"}
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.read(), response.headers.get("Content-Encoding", "")

    page, encoding = fetch(f"/match/{match_id}/")
    sent = len(page)
    zipped = len(page) if encoding == "gzip" else len(gzip.compress(page))
    # A browser fetches a file once however often the page names it (the favicon is
    # both the tab's icon and the header's logo).
    for linked in dict.fromkeys(re.findall(rb'(?:src|href)="(/static/[^"]+)"', page)):
        body, encoding = fetch(linked.decode())
        sent += len(body)
        zipped += len(body) if encoding == "gzip" else len(gzip.compress(body))
    return sent, zipped


def make_stack(
    kind: str, workdir: Path, bot_delay: float, sharded: bool = True
) -> tuple[Stack, Any]:
    """The processes of ``kind`` ("production" or "embedded") and a clean-up for their data.

    ``sharded``: the production stack's two workers share the matches out
    (``run_worker --shard``), as ``scripts/run.sh`` starts them.

    Raises SystemExit when PostgreSQL or Redis is needed and missing.
    """
    if kind == "embedded":
        stack = Stack(
            f"sqlite:///{workdir / 'db.sqlite3'}",
            None,
            workdir,
            servers=1,
            workers=0,
            bot_delay=bot_delay,
            worker_interval=5.0,
            app="bench.echo_asgi:application",
        )
        return stack, lambda: None
    server = postgres_server_url()
    redis = with_path(redis_server_url(), str(BENCH_REDIS_DB))
    for problem in (postgres_problem(server), redis_problem(redis)):
        if problem:
            raise SystemExit(problem)
    database = PostgresDatabase(server, prefix="baloot_bench")
    database.create()
    flush_redis(redis)
    stack = Stack(
        database.url,
        redis,
        workdir,
        servers=2,
        workers=2,
        bot_delay=bot_delay,
        worker_interval=5.0,
        app="bench.echo_asgi:application",
        sharded=sharded,
    )

    def clean_up() -> None:
        database.drop()
        if redis_problem(redis) is None:
            flush_redis(redis)

    return stack, clean_up


def event_times(stack: Stack, match_ids: list[int]) -> list[tuple[int, int, float, str]]:
    """(match, seq, created_at as a Unix time, kind) of every event of the given matches."""
    rows = stack.rows(
        "SELECT match_id, seq, created_at, kind FROM games_event WHERE match_id IN ("
        + ",".join(str(int(pk)) for pk in match_ids)
        + ")"
    )
    out = []
    for match_id, seq, created, kind in rows:
        if isinstance(created, str):
            created = datetime.fromisoformat(created)
        if created.tzinfo is None:
            created = created.replace(tzinfo=UTC)
        out.append((int(match_id), int(seq), created.timestamp(), str(kind)))
    return out


def turns_late(
    events: list[tuple[int, int, float, str]], start: float, end: float, bot_delay: float
) -> list[float]:
    """For each action recorded in [start, end] on its own, how much later than
    ``bot_delay`` after the match's previous event it came.

    A bot acts ``bot_delay`` after its turn comes; whatever more it took is
    the time its turn waited for the worker. Only an action recorded at least
    half a wait after the one before counts: one recorded in the same turn (a
    seat's empty declaration recorded with the play before it) has no wait.
    """
    by_match: dict[int, list[tuple[int, float, str]]] = {}
    for match_id, seq, created, kind in events:
        by_match.setdefault(match_id, []).append((seq, created, kind))
    late = []
    for timeline in by_match.values():
        timeline.sort()
        for previous, (_, created, kind) in pairwise(timeline):
            gap = created - previous[1]
            if kind == "action" and start <= created <= end and gap >= bot_delay / 2:
                late.append(gap - bot_delay)
    return late


async def echo_round_trips(url: str, origin: str, stop: asyncio.Event, limit: int) -> list[float]:
    """Round trips of the bare echo consumer, one every 20 ms while the load runs."""
    times: list[float] = []
    try:
        async with connect(
            f"{url}/bench/echo/", additional_headers={"Origin": origin}, open_timeout=60
        ) as socket:
            while not stop.is_set() and len(times) < limit:
                started = time.perf_counter()
                await socket.send(json.dumps({"seq": len(times)}))
                await socket.recv()
                times.append(time.perf_counter() - started)
                await asyncio.sleep(0.02)
    except (OSError, websockets.WebSocketException, TimeoutError) as error:
        print(f"    echo socket failed: {error!r}", flush=True)
    return times


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used so far, from /proc (0 if unknown)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are the 14th and 15th fields; two are left of the ")".
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_of(stack: Stack) -> dict[str, float]:
    """CPU seconds used so far by each process of the stack, by name."""
    return {process.name: cpu_seconds(process.pid) for process in stack.processes}


async def measure(
    stack: Stack, tables: dict[int, list[str]], warmup: float, duration: float, stagger: float
) -> tuple[list[Client], float, float, list[float], dict[str, float]]:
    """Connect every client, start the tables over ``stagger`` seconds, wait ``warmup``
    more, measure for ``duration``, stop the workers."""
    clients = []
    for match_id, sessions in tables.items():
        for session in sessions:
            # A table's sockets all go to one server process, as deploy/nginx.conf
            # sends them (by a hash of the socket's path; here by the match's id).
            daphne = stack.daphnes[match_id % len(stack.daphnes)]
            clients.append(Client(match_id, daphne.ws_url, f"sessionid={session}", daphne.url))
    stop = asyncio.Event()
    tasks = []
    for start in range(0, len(clients), CONNECT_BATCH):
        batch = clients[start : start + CONNECT_BATCH]
        tasks += [asyncio.create_task(client.run(stop)) for client in batch]
        connecting_since = time.monotonic()
        while not all(client.connected for client in batch):
            if time.monotonic() - connecting_since > 300:
                raise SystemExit(f"clients could not connect: {batch[0].errors[-1:]}")
            await asyncio.sleep(0.05)
    # Connection trouble while nothing was moving is not the load's doing.
    for client in clients:
        client.errors.clear()
    # This process stands for a few hundred browsers: its own collector stops
    # must not count as the server's delay (games' server processes do the same).
    tune_for_server()
    go = GO.format(match_ids=list(tables), bot_delay=stack.bot_delay, stagger=stagger)
    await asyncio.to_thread(stack.shell, go, 1800)
    await asyncio.sleep(stagger + warmup)
    echo_stop = asyncio.Event()
    echo = asyncio.create_task(
        echo_round_trips(stack.daphnes[0].ws_url, stack.daphnes[0].url, echo_stop, 100_000)
    )
    window_start = time.time()
    cpu_before = cpu_of(stack)
    for process in stack.processes:
        if any(wrapper in process.argv for wrapper in WRAPPERS):
            # Profiles and pauses cover the measured window only (bench/profiled.py).
            os.kill(process.pid, signal.SIGUSR1)
    await asyncio.sleep(duration)
    window_end = time.time()
    cpu_after = cpu_of(stack)
    for process in stack.processes:
        if any(wrapper in process.argv for wrapper in WRAPPERS):
            os.kill(process.pid, signal.SIGUSR2)
    cpu = {name: cpu_after[name] - cpu_before[name] for name in cpu_after}
    echo_stop.set()
    await asyncio.to_thread(lambda: [worker.stop() for worker in stack.worker_processes])
    if not stack.worker_processes:
        # The worker runs inside daphne: stop the tables instead.
        await asyncio.to_thread(stack.shell, FREEZE.format(match_ids=list(tables)), 1800)
        await asyncio.sleep(1.0)
    ids = ",".join(str(int(pk)) for pk in tables)
    rows = await asyncio.to_thread(
        stack.rows, f"SELECT id, seq FROM games_match WHERE id IN ({ids})"
    )
    final = {int(pk): int(seq) for pk, seq in rows}
    grace_end = time.monotonic() + MAX_GRACE_SECONDS
    while time.monotonic() < grace_end and not all(
        client.shown and client.shown[-1][0] >= final[client.match_id] for client in clients
    ):
        await asyncio.sleep(0.2)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return clients, window_start, window_end, await echo, cpu


def wrap_processes(
    stack: Stack, wrapper: str, directory: Path, suffix: str, options: tuple[str, ...] = ()
) -> None:
    """Make every process of ``stack`` run under ``wrapper`` (``profiled.py``,
    ``gc_pauses.py``), writing DIRECTORY/NAME``suffix``."""
    directory.mkdir(parents=True, exist_ok=True)
    for process in stack.processes:
        program = process.argv[1:] if process.argv[0] == sys.executable else process.argv
        out = directory / f"{process.name}{suffix}"
        process.argv = [sys.executable, wrapper, str(out), *options, *program]


def pauses_line(path: Path) -> str:
    """One process's collector pauses in the window, as ``gc_pauses.py`` wrote them."""
    figures = json.loads(path.read_text())
    pauses = sorted(seconds for _generation, seconds in figures["pauses"])
    if not pauses:
        return f"collector pauses, {path.stem}: none in {figures['seconds']:.0f} s"
    long = [seconds for seconds in pauses if seconds >= 0.01]
    return (
        f"collector pauses, {path.stem}: {len(pauses)} in {figures['seconds']:.0f} s,"
        f" {sum(pauses):.2f} s in all; {len(long)} of 10 ms or more,"
        f" longest {pauses[-1] * 1000:.0f} ms"
    )


def run(
    kind: str,
    count: int,
    duration: float,
    warmup: float,
    bot_delay: float,
    workdir: Path,
    profile: Path | None = None,
    stagger: float = 0.0,
    pauses: Path | None = None,
    gc_defaults: bool = False,
) -> Figures:
    """One measured run of ``count`` bot tables on a fresh stack of ``kind``.

    ``stagger``: the tables' first turns fall due spread evenly over this
    many seconds rather than together, and the warm-up starts after the last.

    With ``profile``, every server process runs under cProfile and writes
    its figures there as it stops (``profiled.py``). With ``pauses``, every
    server process notes its collector pauses there instead
    (``gc_pauses.py``; with ``gc_defaults``, on Python's own collector
    settings).
    """
    stack, clean_up = make_stack(kind, workdir, bot_delay)
    if profile is not None:
        wrap_processes(stack, PROFILED, profile, ".prof")
    if pauses is not None:
        options = ("--defaults",) if gc_defaults else ()
        wrap_processes(stack, GC_PAUSES, pauses, ".json", options)
    try:
        stack.prepare()
        stack.start()
        out = stack.shell(SETUP.format(count=count, prefix="bench"), timeout=1800)
        tables = {int(k): v for k, v in json.loads(out.strip().splitlines()[-1]).items()}
        some_match, sessions = next(iter(tables.items()))
        loaded = first_load(stack.daphnes[0].url, f"sessionid={sessions[0]}", some_match)
        clients, start, end, echo, cpu = asyncio.run(
            measure(stack, tables, warmup, duration, stagger)
        )
        events = event_times(stack, list(tables))
        tracebacks = stack.tracebacks()
    finally:
        stack.stop()
        clean_up()
    by_match: dict[int, list[Client]] = {}
    for client in clients:
        by_match.setdefault(client.match_id, []).append(client)
    latencies: list[float] = []
    lost = 0
    actions = 0
    for match_id, seq, created, event_kind in events:
        if event_kind != "action" or not start <= created <= end:
            continue
        actions += 1
        for client in by_match[match_id]:
            shown = client.first_showing(seq)
            if shown is None:
                lost += 1
            else:
                latencies.append(max(0.0, shown - created))
    client_errors = [error for client in clients for error in client.errors]
    errors = len(client_errors) + len(tracebacks)
    # A few distinct errors, so that a bad run says why.
    samples = list(dict.fromkeys(e[:300] for e in client_errors))[:3]
    samples += [exception_line(t) for t in tracebacks[:3]]
    label = "PostgreSQL+Redis, 2 daphne" if kind == "production" else "SQLite+in-memory, 1 daphne"
    return Figures(
        label,
        count,
        len(clients),
        end - start,
        actions,
        latencies,
        errors,
        lost,
        echo,
        samples,
        [size for client in clients for size in client.push_sizes],
        loaded,
        cpu,
        turns_late(events, start, end, bot_delay),
    )


def exception_line(traceback: str) -> str:
    """The line of a logged traceback that names the exception."""
    lines = traceback.splitlines()
    name = lines[0].split(":")[0]
    found = next((line for line in lines[1:] if line and not line.startswith(" ")), lines[0])
    return f"{name}: {found[:300]}"


def echo_line(figures: Figures) -> str:
    if not figures.echo:
        return "echo: no round trip measured"
    return (
        f"bare Channels echo in the same daphne process, same run: "
        f"p50 {percentile(figures.echo, 50):.1f} ms, p99 {percentile(figures.echo, 99):.1f} ms "
        f"({len(figures.echo)} round trips)"
    )
