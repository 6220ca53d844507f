"""Telling connected clients that a match moved on, whoever dies on the way.

Group messages carry only "match M is at event N" and a revision token that
tells one change from another at the same event number (a seat taken before
the start, a player stepping away): each consumer then renders what its own
user may see, so no hidden card ever travels through the channel layer.

Within the process that made the change, listeners (``listen``) hear of it
first, with the outcome itself when the service has one (a ``Notice``): the
table's hub keeps it so that the pushes need not read the match again
(``games.table.live``), and the worker's alarm learns the match's new
deadline (``games.worker.alarm``).

Every announcement is first written to the outbox (``Announcement``) in the
transaction that records the event, then sent once that transaction commits,
and the row deleted after the send. A process that dies between its commit
and its send leaves the row behind; the worker's loop sends every row older
than ``RELAY_AFTER`` (``relay_pending``), so the event still reaches every
connected page within a second. Hearing an announcement twice is harmless:
consumers ignore an event they already pushed.

A turn announced late is not charged for the wait: the relay moves the
match's deadline on by the time its announcement was held up.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import DatabaseError, models, transaction
from django.db.models import F
from django.utils import timezone

from games.match.models import Match

logger = logging.getLogger(__name__)

# How old an unsent announcement must be before the relay takes it over: the
# committing process sends its own within milliseconds, unless it died.
RELAY_AFTER = timedelta(seconds=0.4)
# How many announcements one relay pass sends at most.
RELAY_BATCH = 500
# Set only by the crash tests (tests/realworld): the process kills itself with
# SIGKILL right after committing an event, before announcing it.
CRASH_AFTER_COMMIT = "BALOOT_TEST_CRASH_AFTER_COMMIT"


class Announcement(models.Model):
    """An announcement not yet sent: written with its event, deleted once sent.

    Internal bookkeeping, shown nowhere: rows live for milliseconds.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    # The deadline changed without a new event (time given back after an
    # outage): pages must show the fresh countdown even at the same event.
    clock = models.BooleanField(default=False)
    created_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"match {self.match_id} event {self.seq}"


@dataclass(frozen=True)
class Notice:
    """One committed change of a match, as heard inside the process that made it.

    ``outcome`` is the service's ``Outcome`` (match, state and seats as
    committed) when it has one; ``deadline`` is the match's deadline after
    the change.
    """

    match_id: int
    seq: int
    revision: str
    deadline: datetime | None
    outcome: Any = None


Listener = Callable[[Notice], None]
_listeners: list[Listener] = []


def listen(listener: Listener) -> None:
    """Call ``listener`` with every change this process announces, before it is sent."""
    if listener not in _listeners:
        _listeners.append(listener)


def _tell_listeners(notice: Notice) -> None:
    for listener in _listeners:
        try:
            listener(notice)
        except Exception:
            logger.exception("match %s: a listener failed", notice.match_id)


def match_group(match_id: int) -> str:
    """The channel-layer group of everyone watching a match."""
    return f"match-{match_id}"


def event_message(
    match_id: int, seq: int, *, clock: bool = False, revision: str = ""
) -> dict[str, Any]:
    """The group message announcing that a match is now at event ``seq``.

    ``clock`` asks every page for a fresh picture even if it shows ``seq``
    already: the countdown changed. ``revision`` names the change, so that a
    server process reads a match once per change.
    """
    message: dict[str, Any] = {"type": "match.event", "match": match_id, "seq": seq}
    if clock:
        message["clock"] = True
    if revision:
        message["rev"] = revision
    return message


def announce_on_commit(
    match_id: int,
    seq: int,
    *,
    clock: bool = False,
    deadline: datetime | None = None,
    outcome: Any = None,
) -> None:
    """Announce the match's event ``seq`` once the current transaction commits.

    The outbox row is written now, in the caller's transaction, so the
    announcement survives this process dying after the commit. Sending only
    after the commit means no client hears of an event that a rollback
    undid. A failure to send is logged, never raised: the relay sends it later.
    ``deadline`` (the match's, after the change) and ``outcome`` go to this
    process's listeners.
    """
    row = Announcement.objects.create(
        match_id=match_id, seq=seq, clock=clock, created_at=timezone.now()
    )
    notice = Notice(match_id, seq, secrets.token_hex(6), deadline, outcome)
    transaction.on_commit(lambda: _deliver(row, notice), robust=True)


def _deliver(row: Announcement, notice: Notice) -> None:
    """Send a committed announcement, then strike it from the outbox."""
    if os.environ.get(CRASH_AFTER_COMMIT) == "1" and not row.clock:
        print(
            f"crash hook: match {row.match_id} event {row.seq} committed; killing",
            file=sys.stderr,
            flush=True,
        )
        os.kill(os.getpid(), signal.SIGKILL)
    _tell_listeners(notice)
    _send([event_message(row.match_id, row.seq, clock=row.clock, revision=notice.revision)])
    try:
        # One DELETE statement: no cascade, no signal, no transaction of its own.
        rows = Announcement.objects.filter(pk=row.pk)
        rows._raw_delete(rows.db)
    except DatabaseError:
        # Sent already; the relay will send it once more, which is harmless.
        logger.warning("match %s event %s: sent, but left in the outbox", row.match_id, row.seq)


def relay_pending(now: datetime | None = None) -> int:
    """Send every announcement its committing process left unsent; returns how many.

    Runs in the worker's loop. Rows are locked while sent and deleted after
    the send, in one transaction: a relay that dies mid-way leaves them for
    the next one, and two relays never send the same rows at once. A turn
    announced late gets its deadline moved on by the delay, so the player's
    clock starts when they are told it is their turn. Raises DatabaseError
    when the database fails; a failed send leaves the rows for the next pass.
    """
    now = now or timezone.now()
    with transaction.atomic():
        rows = list(
            Announcement.objects.select_for_update(skip_locked=True)
            .filter(created_at__lte=now - RELAY_AFTER)
            .order_by("pk")[:RELAY_BATCH]
        )
        if not rows:
            return 0
        latest: dict[int, Announcement] = {}
        for row in rows:
            kept = latest.get(row.match_id)
            if kept is None or row.seq > kept.seq or (row.seq == kept.seq and row.clock):
                latest[row.match_id] = row
        for row in latest.values():
            _give_back_wait(row, now)
        try:
            _send([event_message(r.match_id, r.seq, clock=r.clock) for r in latest.values()])
        except Exception as error:  # each layer backend fails its own way
            # Nothing changes, the rows stay: the next pass tries again.
            logger.warning("relay: %s announcements not sent (%r); retrying", len(latest), error)
            transaction.set_rollback(True)
            return 0
        Announcement.objects.filter(pk__in=[row.pk for row in rows]).delete()
    for row in latest.values():
        logger.info(
            "relay: announced match %s at event %s, %.1f s after its commit",
            row.match_id,
            row.seq,
            (now - row.created_at).total_seconds(),
        )
    return len(latest)


def _give_back_wait(row: Announcement, now: datetime) -> None:
    """Move the deadline of the turn ``row`` announces on by how late it is announced."""
    late = now - row.created_at
    if late <= timedelta(0):
        return
    Match.objects.filter(
        pk=row.match_id, seq=row.seq, status=Match.Status.PLAYING, deadline__isnull=False
    ).update(deadline=F("deadline") + late)


def _send(messages: list[dict[str, Any]]) -> None:
    """Send each "match M is at event N" message to its match's group."""
    layer = get_channel_layer()
    if layer is None:
        logger.warning("no channel layer: %s announcements not sent", len(messages))
        return

    async def send_all() -> None:
        for message in messages:
            await layer.group_send(match_group(message["match"]), message)

    async_to_sync(send_all)()
