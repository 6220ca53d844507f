"""Turns whose deadline has passed: bots move, timers force the late, the next deal is dealt.

``advance_due`` is what the worker (``manage.py run_worker``) calls in a
loop. It lists the playing matches whose stored deadline is past and has
``services.play_due_turn`` play one turn in each: the services decide what
is played and record it, the path people's actions take, so nothing here
writes to the database but through them.

Every action is recorded against the event number it was chosen at, under
the match row's lock, and the unique (match, seq) constraint refuses a
second one: however many workers run, each due turn is played once, and a
worker that loses a race does nothing. Nothing is kept in memory, so a
restarted worker carries on from the database alone.

Several workers may share the matches out (``Shard``, ``run_worker --shard
K --shards N``): each plays the matches whose id modulo N is K, so no two
race for the same turn and each keeps the state of the matches it moved
(``games.match.versions.STORE``) instead of reading the log again. Each
sharded worker records a beat of its own about once a second, during its
passes too (``heartbeat.beat_shard``). Once a shard's worker has been
silent for ``SHARD_TAKEOVER``, its turns overdue by as much are played by
whichever worker comes first, so a shard whose worker is down only waits
that long. A worker that is alive but behind keeps its own turns: taking
them over because they were late made busy workers race for each other's
matches, each reading the state back from the log, and fall further behind.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Mod
from django.utils import timezone

from games.match import rows, services
from games.match.deadlines import MISSED_TURNS_BEFORE_AWAY
from games.match.errors import ServiceError
from games.match.event_log import LogError
from games.match.models import Match
from games.worker import heartbeat

logger = logging.getLogger(__name__)

# How many due matches one call looks at, most overdue first; the rest wait
# for the next call, so one call never holds the worker for long.
BATCH = 200
# How long a match whose turn cannot be played waits before the next try.
BROKEN_RETRY = timedelta(minutes=1)
# How long a shard's worker must have been silent, and its turn overdue,
# before another sharded worker plays that turn.
SHARD_TAKEOVER = timedelta(seconds=5)


@dataclass(eq=False)
class Shard:
    """The matches one of ``count`` workers plays: those whose id modulo ``count`` is
    ``index``. Raises ValueError for an index outside 0..count-1.

    It also keeps, for its worker, when it last recorded its beat and which
    other shards it last found silent: each is written or read at most once
    a heartbeat (by the site's clock), not at every pass.
    """

    index: int
    count: int
    _beaten: datetime | None = field(default=None, init=False, repr=False)
    _silent: set[int] = field(default_factory=set, init=False, repr=False)
    _silent_read: datetime | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if not 0 <= self.index < self.count:
            raise ValueError(f"shard {self.index} of {self.count} does not exist")

    def owns(self, match_id: int) -> bool:
        return match_id % self.count == self.index

    def due(self, playing: QuerySet[Match], now: datetime) -> QuerySet[Match]:
        """Of ``playing``, the matches due for this shard at ``now``: its own, and those
        of a silent shard (``silent``) overdue by SHARD_TAKEOVER. Raises DatabaseError."""
        own = Q(shard=self.index) & (Q(deadline__lte=now) | Q(deadline__isnull=True))
        silent = self.silent(now)
        if silent:
            own |= Q(shard__in=sorted(silent), deadline__lte=now - SHARD_TAKEOVER)
        return playing.annotate(shard=Mod("pk", self.count)).filter(own)

    def silent(self, now: datetime) -> set[int]:
        """The other shards whose worker has not beaten for SHARD_TAKEOVER at ``now``
        (as read at most a heartbeat ago). Raises DatabaseError."""
        if not _within_a_beat(self._silent_read, now):
            since = now - SHARD_TAKEOVER
            self._silent = heartbeat.silent_shards(self.count, since) - {self.index}
            self._silent_read = now
        return self._silent

    def beat(self, now: datetime) -> None:
        """Record that this shard's worker runs, at most once a heartbeat (by ``now``,
        the site's clock). Raises DatabaseError."""
        if _within_a_beat(self._beaten, now):
            return
        heartbeat.beat_shard(self.index, now)
        self._beaten = now


def _within_a_beat(last: datetime | None, now: datetime) -> bool:
    """True when ``last`` is less than a heartbeat before ``now`` (a clock that went
    back makes it False)."""
    return last is not None and last <= now < last + timedelta(seconds=heartbeat.BEAT_EVERY)


def advance_due(
    now: datetime | None = None, *, limit: int = BATCH, shard: Shard | None = None
) -> int:
    """Play one turn in every playing match whose deadline is at or before ``now``
    (with ``shard``, the shard's matches and those overdue by SHARD_TAKEOVER).

    Returns how many turns were recorded (a match another worker moved
    first is skipped). Raises DatabaseError when the database fails.
    """
    now = now or timezone.now()
    if shard is not None:
        shard.beat(now)
    if shard is None or not shard.silent(now):
        due = _own_due(now, limit, shard)
    else:
        playing = shard.due(Match.objects.filter(status=Match.Status.PLAYING), now)
        due = list(
            playing.order_by(F("deadline").asc(nulls_first=True), "pk").values_list("pk", "seq")[
                :limit
            ]
        )
    played = 0
    for match_id, seq in due:
        try:
            turn = services.play_due_turn(match_id, seen_seq=seq, now=now)
        except (ServiceError, LogError):
            # One broken match must not stop the others, nor fill the log:
            # it is tried again once a minute until someone repairs it.
            logger.exception("match %s: the due turn could not be played", match_id)
            services.put_off_due_turn(match_id, seq, now + BROKEN_RETRY)
            continue
        if turn is not None:
            played += 1
            # The turn's own number: a deal may have followed an action.
            _log(match_id, seq + 1, turn)
        if shard is not None:
            # A long pass must not look like a dead worker to the others.
            shard.beat(timezone.now())
    return played


def next_deadline(shard: Shard | None = None) -> datetime | None:
    """When the next turn of a running match falls due (for ``shard``, when one of
    its own falls due or one of a silent shard's is overdue by SHARD_TAKEOVER);
    None when no match is running.

    A running match without a deadline is due now.
    """
    soonest = _own_first_deadline(shard)
    if shard is None:
        return soonest
    silent = shard.silent(timezone.now())
    if not silent:
        return soonest
    playing = Match.objects.filter(status=Match.Status.PLAYING)
    by_shard = playing.annotate(shard=Mod("pk", shard.count))
    other = _first_deadline(by_shard.filter(shard__in=sorted(silent)))
    if other is not None:
        other += SHARD_TAKEOVER
        if soonest is None or other < soonest:
            soonest = other
    return soonest


class _Statements:
    """The two queries of every pass, written once per process: which of the worker's
    own matches are due, and when the first of them falls due.

    A pass usually plays one or two turns (bots' turns fall due one after
    another), so compiling these through the ORM at every pass cost about as
    much as the turns. A running match without a deadline (one started
    before deadlines were stored) comes first: it is due at once rather than
    stalled for ever.
    """

    def __init__(self) -> None:
        quote = connection.ops.quote_name
        table = quote(Match._meta.db_table)
        pk = quote(Match._meta.pk.column)
        deadline = quote(Match._meta.get_field("deadline").column)
        status = quote(Match._meta.get_field("status").column)
        seq = quote(Match._meta.get_field("seq").column)
        self.pk = pk
        self.where = f"{status} = %s"
        self.due = (
            f"SELECT {pk}, {seq} FROM {table} WHERE {{where}}"
            f" AND ({deadline} <= %s OR {deadline} IS NULL)"
            f" ORDER BY {deadline} IS NOT NULL, {deadline}, {pk} LIMIT %s"
        )
        self.first = (
            f"SELECT {deadline} FROM {table} WHERE {{where}}"
            f" ORDER BY {deadline} IS NOT NULL, {deadline} LIMIT 1"
        )
        self.read_deadline = rows.column_reader(Match, "deadline")

    def of(self, shard: Shard | None) -> tuple[str, list[Any]]:
        """The condition picking the running matches of ``shard`` (all without one)."""
        if shard is None:
            return self.where, [Match.Status.PLAYING.value]
        return (
            f"{self.where} AND {self.pk} %% %s = %s",
            [Match.Status.PLAYING.value, shard.count, shard.index],
        )


_for_connection = rows.PerVendor(_Statements)


def _own_due(now: datetime, limit: int, shard: Shard | None) -> list[tuple[int, int]]:
    """(id, event number) of the running matches of ``shard`` due at ``now``, the most
    overdue first, ``limit`` at most."""
    statements = _for_connection()
    where, params = statements.of(shard)
    moment = connection.ops.adapt_datetimefield_value(now)
    with connection.cursor() as cursor:
        cursor.execute(statements.due.format(where=where), [*params, moment, limit])
        return [(int(pk), int(seq)) for pk, seq in cursor.fetchall()]


def _own_first_deadline(shard: Shard | None) -> datetime | None:
    """The soonest deadline of the running matches of ``shard``; now for one without."""
    statements = _for_connection()
    where, params = statements.of(shard)
    with connection.cursor() as cursor:
        cursor.execute(statements.first.format(where=where), params)
        found = cursor.fetchone()
    if found is None:
        return None
    deadline = statements.read_deadline(found[0])
    return deadline or timezone.now()


def _first_deadline(playing: QuerySet[Match]) -> datetime | None:
    found = list(
        playing.order_by(F("deadline").asc(nulls_first=True)).values_list("deadline", flat=True)[:1]
    )
    if not found:
        return None
    return found[0] or timezone.now()


def _log(match_id: int, seq: int, turn: services.DueTurn) -> None:
    """One line per recorded turn: who acted and the kind of action, never a card."""
    if turn.seat is None:
        logger.info("match %s event %s: the next deal is dealt", match_id, seq)
    elif not turn.auto:
        who = "bot" if turn.is_bot else "bot for away player"
        logger.info(
            "match %s event %s: %s in seat %s: %s", match_id, seq, who, turn.seat, turn.verb
        )
    else:
        logger.info(
            "match %s event %s: seat %s timed out (%s of %s in a row): forced %s%s",
            match_id,
            seq,
            turn.seat,
            turn.missed_turns,
            MISSED_TURNS_BEFORE_AWAY,
            turn.verb,
            "; the seat is now played by the bot" if turn.away else "",
        )
