"""The live projections: statistics at each deal's end, ratings once at a match's end.

Both run inside the transaction of ``games.match.services`` that records the
deal's last action (``games.match.projections``), so they are committed
with it or not at all. Imported matches never count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone

from games import rules
from games.match import projections, rows
from games.match.models import Event, Match, Seat
from games.ratings import formula, policy, stats
from games.ratings.models import PlayerRating, PlayerStats, RatedMatch, RatedSeat

# A person for whom the stand-in bot and the timer made more than this share
# of their seat's decisions left the match, whenever they came back.
LEAVER_SHARE = 0.5


def connect() -> None:
    """Register the projections with the services (``games.apps`` calls it once ready)."""
    projections.on_match_start("ratings.policy", policy.match_started)
    projections.on_deal_end("ratings.stats", deal_ended)
    projections.on_match_end("ratings.match", match_ended)


def deal_ended(match: Match, state: rules.State, seats: Mapping[int, Seat] | None) -> None:
    """Add the ended deal's counters to its players' statistics."""
    if match.imported:
        return
    # The caller's seats, read under the match's lock, hold the players a
    # running match keeps (only a waiting table changes hands).
    users = (
        _users(match)
        if seats is None
        else {n: seat.user_id for n, seat in seats.items() if seat.user_id is not None}
    )
    add_counts(
        match.mode,
        {users[n]: c for n, c in stats.deal_counts(state).items() if n in users},
        private=match.is_private,
    )


def match_ended(match: Match, state: rules.State, seats: Mapping[int, Seat] | None) -> None:
    """Count the won match for its players, and rate it if it is rated."""
    if match.imported or state.winner is None:
        return
    # Read again: the caller's seats may predate this transaction's changes.
    current = list(Seat.objects.filter(match=match))
    users = {seat.number: seat.user_id for seat in current if seat.user_id is not None}
    counts = stats.match_counts(state.winner)
    add_counts(
        match.mode, {users[n]: c for n, c in counts.items() if n in users}, private=match.is_private
    )
    if is_rated(match, current):
        rate_match(match, state.winner, current)


def is_rated(match: Match, seats: list[Seat]) -> bool:
    """True for a match that changes ratings: four people from the start, ended with a winner.

    ``unrated`` is the rating policy's word, taken as the match started
    (``games.ratings.policy``); imported and aborted matches never have a
    rated end.
    """
    return (
        not match.unrated
        and not match.imported
        and match.status == Match.Status.FINISHED
        and match.winner in ("A", "B")
        and len(seats) == 4
        and all(seat.user_id is not None and not seat.is_bot for seat in seats)
    )


def leavers(match: Match, seats: list[Seat]) -> frozenset[int]:
    """The seats of people rated as having left ``match``, read from its log.

    A person left when they were away at the end, or when more than
    ``LEAVER_SHARE`` of their seat's decisions (bids, calls, cards, claims)
    were made for them: by the stand-in bot while they were away, or by the
    timer when they let it run out. Declarations do not count: a hand with
    no project declares nothing by itself, asked or not.
    """
    people = {seat.number: seat for seat in seats if seat.user_id is not None}
    decisions = (
        Event.objects.filter(match=match, kind=Event.Kind.ACTION, actor_seat__in=list(people))
        .exclude(payload__has_key="declare")
        .values("actor_seat")
        .annotate(total=Count("pk"), for_them=Count("pk", filter=Q(auto=True) | Q(stand_in=True)))
    )
    made_for = {
        row["actor_seat"] for row in decisions if row["for_them"] > LEAVER_SHARE * row["total"]
    }
    return frozenset(n for n, seat in people.items() if seat.away or n in made_for)


def add_counts(mode: str, counts: Mapping[int, Counter[str]], *, private: bool = False) -> None:
    """Add ``counts`` (by user id) to those users' statistics in ``mode`` (at private
    tables or not), creating the rows still missing. Raises ValueError for a counter
    that does not exist."""
    wanted = {user: c for user, c in counts.items() if any(c.values())}
    if not wanted:
        return
    unknown = {name for c in wanted.values() for name in c} - set(PlayerStats.COUNTERS)
    if unknown:
        raise ValueError(f"no such statistics: {sorted(unknown)}")
    values: list[Any] = []
    # In user order: the rows are locked in that order whoever counts.
    for user, c in sorted(wanted.items()):
        values += [user, mode, private, *(c[name] for name in PlayerStats.COUNTERS)]
    with rows.cursor() as cursor:
        cursor.execute(_adding()(len(wanted)), values)


def _adding_statement() -> Callable[[int], str]:
    """How to write the one statement adding counters to ``n`` users' statistics.

    Built by the ORM, a deal's end cost a statement per player and one more,
    each compiled anew, as much as a turn; the database (PostgreSQL, SQLite)
    adds to a row it has, or inserts one, in the same statement.
    """
    quote = connection.ops.quote_name
    table = quote(PlayerStats._meta.db_table)
    fields = {field.name: field for field in PlayerStats._meta.concrete_fields}
    keys = ("user", "mode", "private")
    columns = [quote(fields[name].column) for name in (*keys, *PlayerStats.COUNTERS)]
    row = f"({', '.join(['%s'] * len(columns))})"
    adds = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in columns[len(keys) :])
    key = ", ".join(columns[: len(keys)])
    written: dict[int, str] = {}

    def write(n: int) -> str:
        sql = written.get(n)
        if sql is None:
            sql = written[n] = (
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row] * n)}"
                f" ON CONFLICT ({key}) DO UPDATE SET {adds}"
            )
        return sql

    return write


_adding = rows.PerVendor(_adding_statement)


def rate_match(match: Match, winner: str, seats: list[Seat]) -> RatedMatch:
    """Rate a finished match: lock its players' ratings, update them, record the change.

    The rating rows are locked in user order (no deadlock between two
    matches sharing players), and the ``RatedMatch`` row is inserted under
    those locks, so its id orders the updates of any player exactly as they
    were made: replaying in id order gives the same ratings.
    """
    people = {seat.number: seat.user_id for seat in seats if seat.user_id is not None}
    user_ids = sorted(people.values())
    start = formula.Skill()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                user_id=u, mode=match.mode, mu=start.mu, sigma=start.sigma, display=start.shown
            )
            for u in user_ids
        ],
        ignore_conflicts=True,
    )
    ratings = {
        r.user_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(user_id__in=user_ids, mode=match.mode)
        .order_by("user_id")
    }
    now = timezone.now()
    rated = RatedMatch.objects.create(match=match, mode=match.mode, winner=winner, rated_at=now)
    before = {n: formula.Skill(ratings[u].mu, ratings[u].sigma) for n, u in people.items()}
    left = leavers(match, seats)
    after = formula.rate(before, winner, left)
    rows = []
    for number, user_id in sorted(people.items()):
        rating = ratings[user_id]
        new = after[number]
        rating.mu, rating.sigma, rating.display = new.mu, new.sigma, new.shown
        rating.rated_matches += 1
        rating.last_rated_at = now
        rating.save(update_fields=["mu", "sigma", "display", "rated_matches", "last_rated_at"])
        rows.append(
            RatedSeat(
                rated_match=rated,
                user_id=user_id,
                mode=match.mode,
                seat=number,
                won=rules.team_of(number) == winner,
                left=number in left,
                mu_before=before[number].mu,
                sigma_before=before[number].sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                display_after=new.shown,
                rated_at=now,
            )
        )
    RatedSeat.objects.bulk_create(rows)
    return rated


def _users(match: Match) -> dict[int, int]:
    """The user id in each seat of ``match`` held by a person."""
    return dict(
        Seat.objects.filter(match=match, user__isnull=False).values_list("number", "user_id")
    )
