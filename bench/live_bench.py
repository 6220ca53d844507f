"""Live benchmark (issue 4): bot tables on the real server, watched over WebSockets.

Starts the site as ``make run`` does (daphne and the worker, SQLite and the
in-memory channel layer, DEBUG off) — or the production stack with
``--stack production`` — seats N tables of bots with a WebSocket client per
seat, and prints action-to-push latency (p50, p99) and actions per second,
next to the round trip of a bare Channels echo consumer served by the same
daphne process in the same run. Prints figures, asserts nothing.

Every seat is played by the site's default bot (``normal``), which answers
at once whatever ``BOT_DECISION_MS`` says, so the figures are the server's
own: the delay before a bot acts is ``--bot-delay``, not thinking time.

Also prints the CPU time each kind of server process spent per action in
the measured window (read from /proc, so meaningful on a busy machine too),
how much later than their wait the bots' turns came (the worker's backlog:
bots play as fast as the processor left over allows, so on a saturated
machine a cheaper push shows as more actions a second rather than as a
faster push),
and with ``--profile DIR`` runs every server process under cProfile (all
threads) and leaves one ``NAME.prof`` per process in DIR, summed up by
``bench/profile_report.py``. With ``--gc-pauses DIR`` it prints instead how
long each server process's cycle collections stopped it in the window
(``bench/gc_pauses.py``, one ``NAME.json`` per process in DIR);
``--gc-defaults`` with it leaves the collector at Python's own settings
(``baloot_site.collector`` untuned), for the figures before the tuning.

Run:

- embedded default, 50 tables: ``.venv/bin/python bench/live_bench.py --tables 50``
- production stack, 200 tables: ``.venv/bin/python bench/live_bench.py --stack
  production --tables 200 --bot-delay 0.8``. With a wait of 0.8 s, 200 tables
  offer a little more than 200 actions/s, deal pauses included: the question
  is whether the servers keep up with that. A wait of 1 s offers fewer than
  200; one of 0.5 s offers far more than two cores serve, so its latency is
  that of a queue that only grows until the bots' turns come late.
- the same, as a site sees it: add ``--stagger 40``. By default every table
  starts in the same second and, its bots all waiting the same time, stays
  in step with the others for the whole run: all 200 bid together, and all
  end their deals together (five seconds with no move anywhere, then a
  burst of new deals). On a site, tables start when their players are ready,
  so every phase of a deal is under way somewhere at every moment. With
  ``--stagger 40`` the tables' first turns are spread over 40 s (about one
  deal at a wait of 0.8 s) and the warm-up starts after the last: the
  window then also holds the finished deals' analysis, which runs all the
  time on a site and not at all in the first deal of tables in step.
- a short run to see that it works: add ``--short`` (20 s measured after 3 s).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_tables import HEADER, echo_line, late_line, pauses_line, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="seconds a bot waits")
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="start the tables spread evenly over this many seconds (default 0: all at once)",
    )
    parser.add_argument("--stack", choices=["embedded", "production"], default="embedded")
    parser.add_argument(
        "--short", action="store_true", help="20 s measured after 3 s, to see that it works"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="run the server processes under cProfile, one NAME.prof each in DIR/TABLES/",
    )
    parser.add_argument(
        "--gc-pauses",
        type=Path,
        metavar="DIR",
        help="note every server process's collector pauses, one NAME.json each in DIR/TABLES/",
    )
    parser.add_argument(
        "--gc-defaults",
        action="store_true",
        help="with --gc-pauses: Python's own collector settings, without the site's tuning",
    )
    args = parser.parse_args()
    if args.profile and args.gc_pauses:
        parser.error("--profile and --gc-pauses each wrap the server processes: pick one")
    if args.gc_defaults and not args.gc_pauses:
        parser.error("--gc-defaults goes with --gc-pauses")
    if args.short:
        args.duration, args.warmup = 20.0, 3.0
    print(
        f"{args.duration:.0f} s measured after {args.warmup:.0f} s; the default bot (normal,"
        f" no search) plays every seat, {args.bot_delay} s after its turn comes"
    )
    print(HEADER)
    for count in args.tables:
        profile = args.profile / str(count) if args.profile else None
        pauses = args.gc_pauses / str(count) if args.gc_pauses else None
        with tempfile.TemporaryDirectory(prefix="live-bench-") as workdir:
            figures = run(
                args.stack,
                count,
                args.duration,
                args.warmup,
                args.bot_delay,
                Path(workdir),
                profile,
                args.stagger,
                pauses,
                args.gc_defaults,
            )
        print(figures.line())
        print("    " + echo_line(figures), flush=True)
        print("    " + figures.cpu_line())
        print("    " + late_line(figures, args.bot_delay))
        if profile is not None:
            print(f"    profiles: {profile}/*.prof (bench/profile_report.py {profile})")
        if pauses is not None:
            for path in sorted(pauses.glob("*.json")):
                print("    " + pauses_line(path))
        if figures.first_load is not None:
            sent, zipped = figures.first_load
            print(f"    table first load: {sent} bytes as sent, {zipped} bytes gzipped")
        for sample in figures.error_samples:
            print(f"    error: {sample}")


if __name__ == "__main__":
    main()
