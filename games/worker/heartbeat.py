"""Giving back the time an outage took: no one loses a turn while nothing ran.

Every worker records in the database that it is running (``beat``), about
once a second. When a worker finds the last beat older than
``WORKER_OUTAGE_SECONDS`` — no worker ran, or the database could not be
reached, for that long — it first moves every running match's deadline on
by the time the outage took from that turn, then plays what is due. Like a
chess server giving back clock time after a restart, a player whose turn
was pending gets back the time they had when the outage began; a turn
given during the outage (a person's move recorded while no worker ran)
starts afresh from the workers' return. Pages are told, so they show the
fresh countdown. A timeout that falls due while workers run is untouched.

The beat row is locked while one worker checks it, so of several workers
coming back together only the first gives the time back.

Sharded workers (``run_worker --shard K --shards N``) also each record a
beat of their own (``beat_shard``), on row ``SHARD_ROWS + K``: another
shard's turns are taken over only once that shard's worker has been silent
for a while (``silent_shards``), not merely because its turns are late.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from games.match.broadcast import announce_on_commit
from games.match.models import Announcement, Event, Match
from games.worker.models import ROW, SHARD_ROWS, WorkerHeartbeat

logger = logging.getLogger(__name__)

# How often a running worker records that it runs.
BEAT_EVERY = 1.0


def beat(now: datetime | None = None) -> timedelta | None:
    """Record that a worker runs now; after an outage, give the lost time back first.

    Returns the outage's length when deadlines were moved, else None. Raises
    DatabaseError when the database fails.
    """
    now = now or timezone.now()
    outage = timedelta(seconds=settings.WORKER_OUTAGE_SECONDS)
    with transaction.atomic():
        row = WorkerHeartbeat.objects.select_for_update().filter(pk=ROW).first()
        if row is None:
            try:
                with transaction.atomic():
                    WorkerHeartbeat.objects.create(pk=ROW, beat_at=now)
            except IntegrityError:
                # Another worker wrote the first beat at the same moment.
                pass
            return None
        last = row.beat_at
        if now <= last:
            return None
        gap = now - last
        moved = give_back_time(last, now) if gap > outage else 0
        WorkerHeartbeat.objects.filter(pk=ROW).update(beat_at=now)
    if not moved and gap <= outage:
        return None
    logger.warning(
        "worker: no worker ran for %.1f s; %s running matches' deadlines moved on",
        gap.total_seconds(),
        moved,
    )
    return gap


def give_back_time(since: datetime, now: datetime) -> int:
    """Move each running match's deadline on by what the outage from ``since`` to ``now``
    took from its turn; returns how many moved.

    A turn that began before ``since`` gets the whole outage back; one that
    began during it (its event is newer than ``since``) gets the time since
    its event. A turn whose announcement is still in the outbox is left to the
    relay, which starts its clock when it announces it. Each change is
    announced so that pages show the new countdown. Runs inside the caller's
    transaction; raises DatabaseError.
    """
    began = Event.objects.filter(match=OuterRef("pk"), seq=OuterRef("seq")).values("created_at")
    unannounced = Announcement.objects.filter(
        match=OuterRef("pk"), seq=OuterRef("seq"), clock=False
    )
    pending = (
        Match.objects.filter(status=Match.Status.PLAYING, deadline__isnull=False)
        .exclude(Exists(unannounced))
        .annotate(began=Subquery(began[:1]))
        .values_list("pk", "seq", "deadline", "began")
    )
    moved = 0
    for match_id, seq, deadline, turn_began in pending:
        lost = now - max(since, turn_began or since)
        if deadline is None or lost <= timedelta(0):
            continue
        # Only if nobody moved the match meanwhile: a fresh deadline is right as it is.
        if Match.objects.filter(pk=match_id, seq=seq, deadline=deadline).update(
            deadline=deadline + lost
        ):
            announce_on_commit(match_id, seq, clock=True)
            moved += 1
    return moved


def beat_shard(index: int, now: datetime) -> None:
    """Record that the worker of shard ``index`` runs at ``now``. Raises DatabaseError."""
    row = SHARD_ROWS + index
    if not WorkerHeartbeat.objects.filter(pk=row).update(beat_at=now):
        # Only this shard's worker writes this row: no one races to create it.
        WorkerHeartbeat.objects.create(pk=row, beat_at=now)


def silent_shards(count: int, since: datetime) -> set[int]:
    """The shards of ``count`` whose worker has not beaten since ``since`` (or ever).

    Raises DatabaseError.
    """
    rows = WorkerHeartbeat.objects.filter(pk__gte=SHARD_ROWS, pk__lt=SHARD_ROWS + count)
    beats = dict(rows.values_list("pk", "beat_at"))
    return {
        index
        for index in range(count)
        if (last := beats.get(SHARD_ROWS + index)) is None or last < since
    }
