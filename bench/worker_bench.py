"""Worker benchmark: the CPU and queries one due turn costs the worker, in-process.

Opens N tables of four people who have all stepped away (as
``live_bench.py`` does), then calls ``due_turns.advance_due`` with a clock
far ahead, so that every match is due at every pass, until each table has
played ``--turns`` turns. Prints, per recorded turn: the worker's CPU time
(``time.process_time``), the queries sent, and the CPU the bots' decisions
took of it, and on PostgreSQL the CPU the server's backends serving the
bench's database spent (from /proc, so the server must run on this
machine). Announcements go out as the separate worker sends them (one
kept event loop, one batch per pass), to the channel layer the environment
configures (Redis with ``REDIS_URL``). Asserts nothing.

With ``--idle-passes N`` it then puts every deadline a day ahead and times
N passes of the worker command's own loop (``run_worker``'s ``_pass``)
with nothing due, twice: keeping the database connection from pass to pass,
as ``run_worker`` does, and handing it back at every pass, as a request
does (``CONN_MAX_AGE`` 0). It prints the worker's CPU per pass and, on
PostgreSQL, that of the server's backends. ``--turns 0`` skips the turns.

Run on PostgreSQL: create an empty database, then
``DATABASE_URL=postgres://.../db REDIS_URL=redis://127.0.0.1:6379/N
python bench/worker_bench.py [--tables 50] [--turns 120] [--profile OUT.prof]
[--idle-passes 2000]``.
Without DATABASE_URL it runs on a throw-away SQLite file.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pathlib
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(workdir: str) -> None:
    """Configure the site on the given (or a throw-away) database and create its tables."""
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only-key")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
    os.environ.setdefault("BOT_DELAY_SECONDS", "0.5")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def backends_cpu(database: str) -> float | None:
    """CPU seconds spent so far by the PostgreSQL backends serving ``database``; None
    when none is found in /proc (another machine, another user's processes).

    A backend names its database in its process title ("postgres: [CLUSTER:] USER
    DB ...").
    """
    tick = os.sysconf("SC_CLK_TCK")
    total, found = 0, False
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").split()
            if not title or title[0] != b"postgres:":
                continue
            words = [word for word in title if not word.endswith(b":")]
            if len(words) < 2 or words[1] != database.encode():
                continue
            # utime and stime: fields 14 and 15, counted after the command's parentheses.
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
        found = True
    return total / tick if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--turns", type=int, default=120, help="turns each table plays")
    parser.add_argument("--profile", type=pathlib.Path, help="write a cProfile of the passes")
    parser.add_argument(
        "--idle-passes", type=int, default=0, help="then time this many passes with nothing due"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as workdir:
        setup_django(workdir)
        from django.contrib.auth.models import User
        from django.db import connection
        from django.utils import timezone

        import games.match.services as services
        from games.match import broadcast
        from games.match.models import Match, Seat
        from games.worker import due_turns

        broadcast.send_from_own_loop()
        users = [User.objects.create_user(f"bench{n}-{time.monotonic_ns()}") for n in range(4)]
        ids = []
        for _ in range(args.tables):
            people = {n + 1: user for n, user in enumerate(users)}
            outcome = services.open_full_table(people, mode="classic", play_timer=15)
            ids.append(outcome.match.pk)
        Seat.objects.filter(match_id__in=ids).update(away=True)

        bot_seconds = 0.0
        original = services.choose_action

        def timed_choice(*a: Any, **k: Any) -> dict[str, Any]:
            nonlocal bot_seconds
            begin = time.process_time()
            try:
                return original(*a, **k)
            finally:
                bot_seconds += time.process_time() - begin

        services.choose_action = timed_choice
        profiler = cProfile.Profile(time.thread_time_ns, 1e-9) if args.profile else None
        played = queries = 0

        def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
            nonlocal queries
            queries += 1
            return execute(sql, params, many, context)

        passes: list[float] = []
        target = args.tables * args.turns
        start_seq = dict(Match.objects.filter(pk__in=ids).values_list("pk", "seq"))
        database = connection.settings_dict["NAME"]
        postgres = connection.vendor == "postgresql"
        backends_start = backends_cpu(database) if postgres else None
        cpu_start = time.process_time()
        wall_start = time.perf_counter()
        while played < target:
            # Far ahead, so that every match is due, round pauses included.
            later = timezone.now() + timedelta(days=1)
            begin = time.process_time()
            with connection.execute_wrapper(count):
                if profiler is not None:
                    profiler.enable()
                with broadcast.batched():
                    done = due_turns.advance_due(later, limit=args.tables)
                if profiler is not None:
                    profiler.disable()
            passes.append(time.process_time() - begin)
            played += done
            if not done:
                break
        cpu = time.process_time() - cpu_start
        wall = time.perf_counter() - wall_start
        backends_end = backends_cpu(database) if postgres else None
        end_seq = dict(Match.objects.filter(pk__in=ids).values_list("pk", "seq"))
        events = sum(end_seq[pk] - start_seq[pk] for pk in ids)
        layer = "redis" if os.environ.get("REDIS_URL") else "memory"
        print(f"database: {connection.vendor}; layer: {layer}")
        print(
            f"{args.tables} tables, {played} turns recorded ({events} events), {len(passes)} passes"
        )
        if played:
            print(
                f"per turn: {1000 * cpu / played:.2f} ms CPU ({1000 * wall / played:.2f} ms"
                f" wall), {queries / played:.2f} queries,"
                f" bots {1000 * bot_seconds / played:.2f} ms CPU"
            )
            if backends_start is not None and backends_end is not None:
                server = backends_end - backends_start
                print(f"PostgreSQL backends: {1000 * server / played:.2f} ms CPU per turn")
            print(f"pass CPU median {1000 * statistics.median(passes):.1f} ms")
        if profiler is not None:
            profiler.dump_stats(str(args.profile))
            print(f"profile: {args.profile}")
        if args.idle_passes:
            Match.objects.filter(pk__in=ids).update(deadline=timezone.now() + timedelta(days=1))
            idle_passes(args.idle_passes, database if postgres else None)


def idle_passes(count: int, database: str | None) -> None:
    """Time ``count`` passes of the worker command's loop with nothing due, keeping
    the database connection between passes and handing it back at each."""
    from django.db import connection

    from games.management.commands import run_worker
    from games.worker.chores import Chores

    command = run_worker.Command()
    command.chores = Chores()
    keep = run_worker._keep_connection
    for label, kept in (("connection kept", True), ("connection handed back", False)):
        run_worker._keep_connection = keep if kept else lambda: None  # type: ignore[assignment]
        # A fresh connection is one a request would hand back (CONN_MAX_AGE 0).
        connection.close()
        try:
            command._pass()
            backends_start = backends_cpu(database) if database else None
            cpu_start = time.process_time()
            for _ in range(count):
                command._pass()
            cpu = time.process_time() - cpu_start
            backends_end = backends_cpu(database) if database else None
        finally:
            run_worker._keep_connection = keep  # type: ignore[assignment]
        line = f"idle pass, {label}: {1000 * cpu / count:.3f} ms CPU"
        if backends_start is not None and backends_end is not None:
            line += f", PostgreSQL backends {1000 * (backends_end - backends_start) / count:.3f} ms"
        print(f"{line} ({count} passes)")


if __name__ == "__main__":
    main()
