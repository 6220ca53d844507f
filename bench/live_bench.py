"""Live benchmark (issue 4): bot tables on the real server, watched over WebSockets.

Starts the site as ``make run`` does (daphne and the worker, SQLite and the
in-memory channel layer, DEBUG off) — or the production stack with
``--stack production`` — seats N tables of bots with a WebSocket client per
seat, and prints action-to-push latency (p50, p99) and actions per second,
next to the round trip of a bare Channels echo consumer served by the same
daphne process in the same run. Prints figures, asserts nothing.

Run: ``.venv/bin/python bench/live_bench.py --tables 50 200``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_tables import HEADER, echo_line, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="seconds a bot waits")
    parser.add_argument("--stack", choices=["embedded", "production"], default="embedded")
    args = parser.parse_args()
    print(f"{args.duration:.0f} s measured after {args.warmup:.0f} s, bots wait {args.bot_delay} s")
    print(HEADER)
    for count in args.tables:
        with tempfile.TemporaryDirectory(prefix="live-bench-") as workdir:
            figures = run(
                args.stack, count, args.duration, args.warmup, args.bot_delay, Path(workdir)
            )
        print(figures.line())
        print("    " + echo_line(figures), flush=True)
        if figures.first_load is not None:
            sent, zipped = figures.first_load
            print(f"    table first load: {sent} bytes as sent, {zipped} bytes gzipped")
        for sample in figures.error_samples:
            print(f"    error: {sample}")


if __name__ == "__main__":
    main()
