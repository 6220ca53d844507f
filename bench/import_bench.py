"""Import benchmark (issue 12): an oversized upload refused, a 200-deal upload imported under load.

Starts the site as ``make run`` does (one daphne with the worker inside, a
SQLite file, DEBUG off) — or the production stack with ``--stack
production`` (PostgreSQL, Redis, one daphne and one worker) — and prints:

- the time to refuse a document of 2,202 passed-out deals (over the deal
  cap, its size printed: about 1 MB), from the POST to the answer;
- the time from uploading a legal 200-deal document to its match page being
  there, while people at bot tables keep acting, with the p50 and p99 of
  those players' requests during the import.

Prints figures, asserts nothing. Run: ``.venv/bin/python bench/import_bench.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stacks.clients import HttpSession  # noqa: E402
from stacks.documents import long_document  # noqa: E402
from stacks.import_load import import_under_load, upload  # noqa: E402
from stacks.servers import (  # noqa: E402
    BENCH_REDIS_DB,
    PostgresDatabase,
    Stack,
    flush_redis,
    postgres_server_url,
    redis_server_url,
    with_path,
)
from stacks.tables import PASSWORD, create_user  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stack", choices=["embedded", "production"], default="embedded")
    parser.add_argument("--deals", type=int, default=200, help="deals of the legal document")
    parser.add_argument("--tables", type=int, default=3, help="players acting meanwhile")
    args = parser.parse_args()

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as workdir:
        database = None
        if args.stack == "embedded":
            stack = Stack(f"sqlite:///{Path(workdir) / 'db.sqlite3'}", None, Path(workdir), 1, 0)
        else:
            database = PostgresDatabase(postgres_server_url(), prefix="baloot_bench")
            database.create()
            redis_url = with_path(redis_server_url(), str(BENCH_REDIS_DB))
            flush_redis(redis_url)
            stack = Stack(database.url, redis_url, Path(workdir), servers=1, workers=1)
        try:
            stack.prepare()
            stack.start()
            try:
                flood = long_document(2202, played_every=0).encode()
                create_user(stack, "flooder")
                session = HttpSession(stack.daphnes[0].url)
                session.log_in("flooder", PASSWORD)
                response, seconds = upload(session, flood)
                refused = response.status == 200 and "2202 deals" in response.text
                print(
                    f"{len(flood) // 1024} KB document of 2202 deals: "
                    f"{'refused' if refused else f'NOT refused ({response.status})'} "
                    f"in {seconds * 1000:.0f} ms"
                )
                data = long_document(args.deals).encode()
                run = import_under_load(stack, data, tables=args.tables, prefix="bench")
                print(
                    f"{args.deals}-deal document ({len(data) // 1024} KB): upload answered in "
                    f"{run.upload_seconds * 1000:.0f} ms, match ready after "
                    f"{run.import_seconds:.1f} s ({args.stack} stack)"
                )
                statuses = [status for _t, status, _locked in run.requests]
                print(
                    f"other players meanwhile: {run.actions} moves, {len(statuses)} requests, "
                    f"p50 {run.percentile(0.5) * 1000:.0f} ms, "
                    f"p99 {run.percentile(0.99) * 1000:.0f} ms, "
                    f"statuses {sorted(set(statuses))}, "
                    f"'database is locked' {sum(locked for *_r, locked in run.requests)} times"
                )
            finally:
                stack.stop()
        finally:
            if database is not None:
                database.drop()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
