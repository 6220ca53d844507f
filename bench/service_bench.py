"""Service-layer benchmark: how fast actions are recorded and matches load, as matches grow.

Plays seeded random matches through ``games.match.services.submit`` on a fresh
SQLite database (or on DATABASE_URL if set) and prints:

- actions recorded per second and the median time of one ``submit``;
- the time and query count of ``load_state`` after deal 1 and after the
  last deal, which per-deal snapshots keep flat;
- the time to replay the same match from its first event, for comparison.

Prints its figures and asserts nothing. Run: ``python bench/service_bench.py [--deals N]``;
for PostgreSQL, create an empty database and set DATABASE_URL to it.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(workdir: str) -> None:
    """Configure the site on a throw-away database and create its tables."""
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only-key")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
    # The next deal is dealt as the last one ends: no worker runs here to end a pause.
    os.environ["ROUND_PAUSE_SECONDS"] = "0"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def timed(function: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``function()`` over ``repeat`` calls, in milliseconds."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=12, help="deals to play, at most one match (default 12)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed of the players")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as workdir:
        setup_django(workdir)
        from django.contrib.auth.models import User
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from games import rules
        from games.match import services
        from games.match.event_log import rebuild_state

        players = {
            n: User.objects.create_user(f"player{n}", password="bench-pass-1234")
            for n in (1, 2, 3, 4)
        }
        match = services.create_match(players[1])
        for n in (2, 3, 4):
            services.take_seat(players[n], match, n)
        outcome = services.start_match(players[1], match)
        rng = random.Random(args.seed)

        def load_figures() -> tuple[float, int]:
            with CaptureQueriesContext(connection) as queries:
                services.load_state(outcome.match)
            return timed(lambda: services.load_state(outcome.match), 50), len(queries)

        loads: dict[int, tuple[float, int]] = {}
        submit_times = []
        started = time.perf_counter()
        while len(outcome.state.results) < args.deals:
            if outcome.state.phase is rules.Phase.MATCH_OVER:
                break
            seat = outcome.state.turn
            assert seat is not None
            action = rng.choice(rules.legal_actions(outcome.state))
            begin = time.perf_counter()
            outcome = services.submit(players[seat], outcome.match, action, outcome.seq)
            submit_times.append((time.perf_counter() - begin) * 1000)
            finished = len(outcome.state.results)
            if finished not in loads and outcome.state.phase is rules.Phase.BIDDING:
                # Measured at the same point of every deal: just dealt.
                loads[finished] = load_figures()
        elapsed = time.perf_counter() - started
        deals = len(outcome.state.results)
        replay_ms = timed(lambda: rebuild_state(outcome.match), 10)

        print(f"database: {connection.vendor}")
        print(f"deals played: {deals}, events stored: {outcome.seq}")
        print(
            f"submit: {len(submit_times) / elapsed:.0f} actions/s, "
            f"median {statistics.median(submit_times):.2f} ms, "
            f"p99 {statistics.quantiles(submit_times, n=100)[98]:.2f} ms"
        )
        for finished in (min(loads), max(loads)):
            ms, queries = loads[finished]
            print(f"load_state as deal {finished + 1} starts: {ms:.2f} ms, {queries} queries")
        print(f"full replay of all {outcome.seq} events: {replay_ms:.2f} ms")


if __name__ == "__main__":
    main()
