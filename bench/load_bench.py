"""Load benchmark (issue 6): N bot tables across two daphne processes on PostgreSQL + Redis.

For each N: a fresh production stack (two daphne processes, two workers, a
new PostgreSQL database, a Redis index of its own), N tables played by bots
with a WebSocket client per seat, the seats spread over both processes, for
a fixed duration; then the same on the embedded default (one daphne
process, SQLite, the in-memory channel layer). Prints actions per second,
action-to-push latency p50 / p99, errors and events lost (must be 0), and
the largest N tried whose p99 stayed under 100 ms. Asserts nothing.

Run: ``.venv/bin/python bench/load_bench.py --tables 50 200``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_tables import HEADER, late_line, percentile, run

TARGET_P99_MS = 100.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="seconds a bot waits")
    parser.add_argument(
        "--stacks",
        nargs="+",
        choices=["production", "embedded"],
        default=["production", "embedded"],
    )
    args = parser.parse_args()
    print(f"{args.duration:.0f} s measured after {args.warmup:.0f} s, bots wait {args.bot_delay} s")
    print(HEADER)
    best: dict[str, int] = {}
    for kind in args.stacks:
        for count in args.tables:
            with tempfile.TemporaryDirectory(prefix="load-bench-") as workdir:
                figures = run(
                    kind, count, args.duration, args.warmup, args.bot_delay, Path(workdir)
                )
            print(figures.line(), flush=True)
            print("    " + late_line(figures, args.bot_delay))
            for sample in figures.error_samples:
                print(f"    error: {sample}")
            if percentile(figures.latencies, 99) < TARGET_P99_MS and figures.lost == 0:
                best[figures.label] = max(best.get(figures.label, 0), count)
    for label, count in best.items():
        print(
            f"largest N tried with p99 < {TARGET_P99_MS:.0f} ms and nothing lost, {label}: {count}"
        )


if __name__ == "__main__":
    main()
