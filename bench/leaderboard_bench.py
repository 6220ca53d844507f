"""Leaderboard benchmark: how fast a leaderboard page answers with 20,000 rated players.

Migrates an empty PostgreSQL database (DATABASE_URL), generates players and
rated results by rating generated matches with the site's own formula
(``games.ratings.formula``, openskill's Plackett-Luce), stores them as the
services would (``PlayerRating``, ``RatedMatch``, ``RatedSeat``), then asks
for leaderboard pages through the Django test client, as a logged-in player
whose own rank the page looks up. Prints p50/p99 of the whole page and of its
queries alone, and the plan PostgreSQL picks for the page and the count.

The page reads the partial index ``rating_leaderboard`` on
games_playerrating (mode, display DESC, user_id) INCLUDE (last_rated_at,
rated_matches) WHERE rated_matches >= 10: the page (deep ones too), the
count and the viewer's rank are Index Only Scans on it, the page's with a
LIMIT; the fifty names come after by primary key.

Prints its figures and asserts nothing. Run:
``DATABASE_URL=postgres://.../empty_db python bench/leaderboard_bench.py``
(``--players 20000 --results 200000 --requests 300``); run again on the
same database, it times the ratings already there.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import pathlib
import random
import statistics
import sys
import time
from datetime import datetime, timedelta
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BATCH = 5000


def setup_django() -> None:
    """Configure the site on DATABASE_URL and create its tables."""
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only-key")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
    # The test client's host, and static names without a collected manifest.
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    call_command("migrate", verbosity=0)


def percentile(samples: list[float], share: float) -> float:
    """The ``share`` percentile of ``samples`` (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def generate(players: int, results: int, seed: int) -> None:
    """Players, rated matches and their ratings, as the services would have stored them."""
    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from games.match.models import Match
    from games.ratings import formula
    from games.ratings.models import PlayerRating, RatedMatch, RatedSeat

    rng = random.Random(seed)
    now = timezone.now()
    with transaction.atomic():
        User.objects.bulk_create(
            (User(username=f"player{n:05d}", password="!") for n in range(players)),
            batch_size=BATCH,
        )
        ids = list(User.objects.order_by("pk").values_list("pk", flat=True))
        # Some people play far more than others, and most prefer one mode.
        weights = list(itertools.accumulate(rng.paretovariate(3.0) for _ in ids))
        talent = {pk: rng.gauss(0, 1) for pk in ids}
        skills: dict[tuple[int, str], formula.Skill] = {}
        counts: dict[tuple[int, str], int] = {}
        last: dict[tuple[int, str], datetime] = {}
        matches = results // 4
        # Six months of matches, oldest first.
        span = timedelta(days=182)
        times: list[datetime] = sorted(now - span * rng.random() for _ in range(matches))
        match_rows = [
            Match(
                mode="classic" if rng.random() < 0.75 else "quick",
                status=Match.Status.FINISHED,
                winner="A",
                started_at=when,
                finished_at=when,
                created_at=when,
            )
            for when in times
        ]
        Match.objects.bulk_create(match_rows, batch_size=BATCH)
        rated_rows = []
        seat_rows = []
        for match in match_rows:
            four: set[int] = set()
            while len(four) < 4:
                four.add(rng.choices(ids, cum_weights=weights)[0])
            seated = dict(zip((1, 2, 3, 4), four, strict=True))
            strength = {
                team: sum(talent[seated[n]] for n in formula.TEAM_SEATS[team]) for team in "AB"
            }
            winner = "A" if rng.random() < 1 / (1 + 2.0 ** (strength["B"] - strength["A"])) else "B"
            match.winner = winner
            finished = match.created_at
            before = {n: skills.get((u, match.mode), formula.Skill()) for n, u in seated.items()}
            after = formula.rate(before, winner)
            rated = RatedMatch(match=match, mode=match.mode, winner=winner, rated_at=finished)
            rated_rows.append(rated)
            for n, u in seated.items():
                key = (u, match.mode)
                skills[key] = after[n]
                counts[key] = counts.get(key, 0) + 1
                last[key] = finished
                seat_rows.append(
                    RatedSeat(
                        rated_match=rated,
                        user_id=u,
                        mode=match.mode,
                        seat=n,
                        won=(n % 2 == 1) == (winner == "A"),
                        left=False,
                        mu_before=before[n].mu,
                        sigma_before=before[n].sigma,
                        mu_after=after[n].mu,
                        sigma_after=after[n].sigma,
                        display_after=after[n].shown,
                        rated_at=finished,
                    )
                )
        Match.objects.bulk_update(match_rows, ["winner"], batch_size=BATCH)
        RatedMatch.objects.bulk_create(rated_rows, batch_size=BATCH)
        RatedSeat.objects.bulk_create(seat_rows, batch_size=BATCH)
        PlayerRating.objects.bulk_create(
            (
                PlayerRating(
                    user_id=u,
                    mode=mode,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    display=skill.shown,
                    rated_matches=counts[(u, mode)],
                    last_rated_at=last[(u, mode)],
                )
                for (u, mode), skill in skills.items()
            ),
            batch_size=BATCH,
        )


def explain(sql: str, params: tuple[Any, ...]) -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) {sql}", params)
        return "\n".join(f"    {row[0]}" for row in cursor.fetchall())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--results", type=int, default=200_000, help="rated results (4 a match)")
    parser.add_argument("--requests", type=int, default=300, help="leaderboard pages to time")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL to an empty PostgreSQL database.")
    setup_django()
    # One line per log-in would bury the figures.
    logging.getLogger("axes").setLevel(logging.WARNING)
    from django.contrib.auth.models import User
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games.ratings import leaderboard
    from games.ratings.models import PROVISIONAL_MATCHES, PlayerRating, RatedSeat

    started = time.perf_counter()
    if PlayerRating.objects.exists():
        print("the database already holds ratings: timing those")
    else:
        generate(args.players, args.results, args.seed)
    # As autovacuum leaves a settled table: statistics and the visibility map
    # (which lets the count and the rank be answered from the index alone).
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"database: {connection.vendor} {connection.cursor().connection.info.server_version}")
    print(
        f"{User.objects.count()} players, {RatedSeat.objects.count()} rated results, "
        f"{PlayerRating.objects.count()} ratings (ready in {time.perf_counter() - started:.1f} s)"
    )
    for mode in ("classic", "quick"):
        for period in leaderboard.PERIODS:
            print(
                f"on the {mode} board ({period}): {leaderboard.board(mode, period).count()} players"
            )

    rng = random.Random(args.seed)
    established = list(
        PlayerRating.objects.filter(rated_matches__gte=PROVISIONAL_MATCHES).values_list(
            "user_id", "mode"
        )
    )
    url = reverse("ratings:leaderboard")
    page_ms: list[float] = []
    query_ms: list[float] = []
    queries_per_page = 0
    for _ in range(args.requests):
        user_id, mode = rng.choice(established)
        client = Client()
        client.force_login(User.objects.get(pk=user_id))
        period = rng.choice(leaderboard.PERIODS)
        page = rng.choice(["1", "1", "2", str(rng.randint(1, 60)), "mine"])
        params = {"mode": mode, "period": period, "page": page}
        client.get(url, params)  # a warm session, as a returning player has
        with CaptureQueriesContext(connection) as queries:
            begin = time.perf_counter()
            response = client.get(url, params)
            page_ms.append((time.perf_counter() - begin) * 1000)
        assert response.status_code == 200
        board = [q for q in queries.captured_queries if "games_playerrating" in q["sql"]]
        query_ms.append(sum(float(q["time"]) for q in board) * 1000)
        queries_per_page = max(queries_per_page, len(queries.captured_queries))
        reset_queries()

    print(f"leaderboard page, {args.requests} requests (whole response, in process):")
    print(f"  p50 {percentile(page_ms, 0.50):.1f} ms, p99 {percentile(page_ms, 0.99):.1f} ms")
    print("its rating queries alone (page, count, own rank):")
    print(f"  p50 {percentile(query_ms, 0.50):.1f} ms, p99 {percentile(query_ms, 0.99):.1f} ms")
    print(f"queries per page (session and user included): at most {queries_per_page}")
    print(f"mean page {statistics.fmean(page_ms):.1f} ms")

    deep = leaderboard.board("classic", leaderboard.ALL_TIME).values_list(
        "user_id", "display", "rated_matches"
    )[40 * leaderboard.PAGE_SIZE : 41 * leaderboard.PAGE_SIZE]
    sql, deep_params = deep.query.sql_with_params()
    print("plan of page 41 of the classic board:")
    print(explain(sql, deep_params))
    count_sql, count_params = (
        leaderboard.board("classic", leaderboard.THIS_MONTH)
        .order_by()
        .values("pk")
        .query.sql_with_params()
    )
    print("plan of counting the classic board of this month:")
    print(explain(f"SELECT count(*) FROM ({count_sql}) AS board", count_params))


if __name__ == "__main__":
    main()
