"""Sum up the profiles ``live_bench.py --profile DIR`` left: where the servers' CPU went.

Usage: ``python bench/profile_report.py DIR [--top N]``. For each kind of
process (daphne, worker) it adds up the ``NAME.prof`` files of DIR and
prints the CPU time by area (templates, database, rules engine, bots,
channel layer, network, ...), by the function's own time, then the N
functions with the most time of their own and the N with the most time
including what they call. The figures are CPU seconds of the profiled run,
profiling's own cost included: compare shares, not totals.
"""

from __future__ import annotations

import argparse
import pstats
from collections import defaultdict
from pathlib import Path

# Where a function lives -> the area it counts for; the first match wins.
AREAS = (
    (
        "templates (Django engine, partials)",
        ("django/template", "template_partials", "templatetags"),
    ),
    ("translation", ("django/utils/translation", "gettext", "babel")),
    ("database (ORM, driver, pool)", ("django/db", "psycopg", "sqlite3", "dj_database_url")),
    ("rules engine (view_for, replay)", ("games/rules",)),
    ("bots", ("games/bots",)),
    ("table display (picture, render, live)", ("games/table", "games/display")),
    ("match services and worker", ("games/match", "games/worker", "games/management")),
    ("channel layer (Redis)", ("channels_redis", "redis/", "msgpack")),
    ("Channels and ASGI", ("channels/", "asgiref", "django/core/handlers")),
    ("network (daphne, Twisted, Autobahn)", ("daphne", "twisted", "autobahn", "txaio")),
    ("JSON", ("json",)),
    ("asyncio and threads", ("asyncio", "concurrent", "threading", "selectors", "queue")),
    ("rest of Django", ("django/",)),
)


def area_of(filename: str, name: str) -> str:
    where = f"{filename}:{name}"
    for area, needles in AREAS:
        if any(needle in where for needle in needles):
            return area
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    kinds: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(args.directory.glob("*.prof")):
        kinds[path.stem.rsplit("-", 1)[0]].append(path)
    if not kinds:
        raise SystemExit(f"no .prof files in {args.directory}")
    for kind, paths in kinds.items():
        stats = pstats.Stats(*map(str, paths))
        areas: dict[str, float] = defaultdict(float)
        total = 0.0
        table = stats.stats  # type: ignore[attr-defined]
        for (filename, _line, name), (_cc, _nc, tottime, _ct, _callers) in table.items():
            areas[area_of(filename, name)] += tottime
            total += tottime
        print(f"===== {kind} ({len(paths)} process(es)): {total:.1f} CPU s profiled")
        for area, seconds in sorted(areas.items(), key=lambda item: -item[1]):
            print(f"  {seconds / total:6.1%}  {seconds:8.1f} s  {area}")
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
