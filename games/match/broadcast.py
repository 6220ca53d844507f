"""Telling connected clients that a match moved on, whoever dies on the way.

Group messages say "match M is at event N", with a revision token that
tells one change from another at the same event number (a seat taken before
the start, a player stepping away): each consumer then renders what its own
user may see. An announcement of a service's outcome also carries the step
that led there (the new events and the rows as committed,
``games.match.steps``), so that the other server processes bring their kept
version of the match up to date without reading the database. A step holds
hidden cards: it stays inside the server (the channel layer), and a
consumer sends its client only what ``rules.view_for`` gives its seat.

Within the process that made the change, the version the service committed
goes first to the process's store (``games.match.versions.STORE.remember``,
called here), so that neither the pushes (``games.table.live``) nor the
worker's next turn read the match again. Then the listeners hear of it (a
``Notice``): one only, registered in ``GamesConfig.ready`` (``games/apps.py``)
so that a reader finds it, the worker's alarm, which learns the match's new
deadline (``games.worker.alarm``).

Every announcement is first written to the outbox (``models.Announcement``) in the
transaction that records the event, then sent once that transaction commits,
and the row deleted after the send. A process that dies between its commit
and its send leaves the row behind; the worker's loop sends every row older
than ``RELAY_AFTER`` (``relay_pending``), so the event still reaches every
connected page within a second. Hearing an announcement twice is harmless:
consumers ignore an event they already pushed.

A turn announced late is not charged for the wait: the relay moves the
match's deadline on by the time its announcement was held up.

The worker makes many announcements in one pass. Inside ``batched()`` each
is sent as its turn commits, without waiting for the send to finish, and
their outbox rows are struck together: one DELETE once every send of the
batch has gone through, at the end of the pass or as soon as the oldest has
waited ``BATCH_WAIT``. Holding the sends themselves for the batch made the
first turns of a pass wait for the last, and every server process then
drew a whole pass's pushes in one go (at 200 tables, a median of 55 ms from
action to push, against 14 to 20 ms sent at once). A process with no
event loop of its own (the worker) sends from one loop kept for the process
(``send_from_own_loop``): ``async_to_sync`` would start a thread, an event
loop and a Redis connection for every send.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import DatabaseError, connection, transaction
from django.db.models import F
from django.utils import timezone

from games.match import steps, versions
from games.match.models import Announcement, Match
from games.match.rows import PerVendor, cursor, holds, insert_sql, prepared_values, write_held

logger = logging.getLogger(__name__)

# How old an unsent announcement must be before the relay takes it over: the
# committing process sends its own within milliseconds, unless it died.
RELAY_AFTER = timedelta(seconds=0.4)
# How many announcements one relay pass sends at most.
RELAY_BATCH = 500
# How long a sent announcement's outbox row may wait to be struck with the
# others of its batch (seconds).
BATCH_WAIT = 0.02
# How long one send may take before it counts as failed (seconds).
SEND_TIMEOUT = 30.0
# Set only by the crash tests (tests/realworld): the process kills itself with
# SIGKILL right after committing an event, before announcing it.
CRASH_AFTER_COMMIT = "BALOOT_TEST_CRASH_AFTER_COMMIT"


@dataclass(frozen=True)
class Notice:
    """One committed change of a match, as heard inside the process that made it.

    ``version`` is the match as the service committed it, when the change
    came with one; ``deadline`` is the match's deadline after the change.
    """

    match_id: int
    seq: int
    revision: str
    deadline: datetime | None
    version: versions.MatchVersion | None = None


Listener = Callable[[Notice], None]
_listeners: list[Listener] = []


def listen(listener: Listener) -> None:
    """Call ``listener`` with every change this process announces, before it is sent.

    Registered from ``GamesConfig.ready`` only, never on import, so that every
    listener is named in one place.
    """
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
    match_id: int,
    seq: int,
    *,
    clock: bool = False,
    revision: str = "",
    step: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The group message announcing that a match is now at event ``seq``.

    ``clock`` asks every page for a fresh picture even if it shows ``seq``
    already: the countdown changed. ``revision`` names the change, so that a
    server process reads a match once per change. ``step`` is the change
    itself, for the server processes that keep the match (``games.match.steps``).
    """
    message: dict[str, Any] = {"type": "match.event", "match": match_id, "seq": seq}
    if clock:
        message["clock"] = True
    if revision:
        message["rev"] = revision
    if step is not None:
        message["next"] = step
    return message


def steps_travel() -> bool:
    """Whether announcements carry their steps to the other server processes.

    Not through the in-memory layer: it reaches no other process, and this
    one's own store gets each version directly (``_deliver``).
    """
    return not isinstance(get_channel_layer(), InMemoryChannelLayer)


def announce_on_commit(
    match_id: int,
    seq: int,
    *,
    clock: bool = False,
    deadline: datetime | None = None,
    version: versions.MatchVersion | None = None,
    events: Sequence[steps.Appended] = (),
) -> None:
    """Announce the match's event ``seq`` once the current transaction commits.

    The outbox row is written now, in the caller's transaction, so the
    announcement survives this process dying after the commit. Sending only
    after the commit means no client hears of an event that a rollback
    undid. A failure to send is logged, never raised: the relay sends it later.
    ``version`` (the match as the service committed it) goes to this
    process's store, ``deadline`` (the match's, after the change) to its
    listeners; the step of ``events``, taken now as the rows stand, goes
    with the message to the other processes.
    """
    if version is not None and (version.match.pk != match_id or version.seq != seq):
        version = None
    held = version.match if version is not None else None
    if held is not None and holds(held):
        # In the one statement of the match's own writes (rows.combined_writes).
        row = Announcement(match_id=match_id, seq=seq, clock=clock, created_at=timezone.now())
        row.pk = write_held(held, _outbox_insert(), prepared_values(row, OUTBOX_FIELDS))
    else:
        row = Announcement.objects.create(
            match_id=match_id, seq=seq, clock=clock, created_at=timezone.now()
        )
    notice = Notice(match_id, seq, secrets.token_hex(6), deadline, version)
    step = None
    if version is not None and steps_travel():
        step = steps.step_of(version, events)
    transaction.on_commit(lambda: _deliver(row, notice, step), robust=True)


# The columns of an outbox row written with its match's writes, and that INSERT.
OUTBOX_FIELDS = tuple(f.name for f in Announcement._meta.concrete_fields if not f.primary_key)
_outbox_insert = PerVendor(lambda: insert_sql(Announcement, OUTBOX_FIELDS, True))


def _deliver(row: Announcement, notice: Notice, step: dict[str, Any] | None = None) -> None:
    """Send a committed announcement, then strike it from the outbox."""
    if os.environ.get(CRASH_AFTER_COMMIT) == "1" and not row.clock:
        print(
            f"crash hook: match {row.match_id} event {row.seq} committed; killing",
            file=sys.stderr,
            flush=True,
        )
        os.kill(os.getpid(), signal.SIGKILL)
    version = notice.version
    # The version's match row may have moved on in the same transaction after
    # this announcement; its state then belongs to an earlier number.
    if version is not None and version.seq == notice.seq:
        versions.STORE.remember(version, notice.revision)
    _tell_listeners(notice)
    message = event_message(
        row.match_id,
        row.seq,
        clock=row.clock,
        revision=notice.revision,
        step=step,
    )
    batch: _Batch | None = getattr(_batches, "open", None)
    if batch is not None:
        batch.hold(row.pk, _send_soon([message]))
        if time.monotonic() - batch.since >= BATCH_WAIT:
            batch.flush()
        return
    _send([message])
    _strike([row.pk])


def _strike_statement() -> Callable[[list[int]], tuple[str, list[Any]]]:
    """How to write the DELETE of the outbox rows with the given keys: on PostgreSQL
    one statement for any number, the keys going as one array."""
    quote = connection.ops.quote_name
    key = Announcement._meta.pk
    assert key is not None
    head = f"DELETE FROM {quote(Announcement._meta.db_table)} WHERE {quote(key.column)}"
    if connection.vendor == "postgresql":
        sql = f"{head} = ANY(%s)"
        return lambda pks: (sql, [pks])
    return lambda pks: (f"{head} IN ({', '.join(['%s'] * len(pks))})", pks)


_strike_sql = PerVendor(_strike_statement)


def _strike(pks: list[int]) -> None:
    """Delete sent announcements from the outbox; a failure leaves them to the relay."""
    try:
        # One DELETE statement, written once: no cascade, no signal, no
        # transaction of its own. Built by the ORM, it cost as much as the
        # rest of the send.
        sql, params = _strike_sql()(pks)
        with cursor() as deleting:
            deleting.execute(sql, params)
    except DatabaseError:
        # Sent already; the relay will send them once more, which is harmless.
        logger.warning("%s announcements sent, but left in the outbox", len(pks))


@dataclass
class _Batch:
    """Announcements committed and on their way, their outbox rows not yet struck."""

    pks: list[int] = field(default_factory=list)
    sends: list[Future[None]] = field(default_factory=list)
    since: float = 0.0

    def hold(self, pk: int, send: Future[None]) -> None:
        if not self.pks:
            self.since = time.monotonic()
        self.pks.append(pk)
        self.sends.append(send)

    def flush(self) -> None:
        """Wait for the sends held, then strike the rows of those that went through.

        A failed send is logged and leaves its row to the relay.
        """
        pks, sends = self.pks, self.sends
        self.pks, self.sends = [], []
        sent: list[int] = []
        failed: list[BaseException] = []
        for pk, send in zip(pks, sends, strict=True):
            try:
                send.result(SEND_TIMEOUT)
            except Exception as error:  # each layer backend fails its own way
                failed.append(error)
            else:
                sent.append(pk)
        if failed:
            logger.warning("%s announcements not sent (%r); the relay will", len(failed), failed[0])
        if sent:
            _strike(sent)


_batches = threading.local()


@contextlib.contextmanager
def batched() -> Iterator[None]:
    """Hold the announcements this thread makes inside, and send them together.

    They go out at the end, or as soon as the oldest held has waited
    ``BATCH_WAIT``, whichever comes first. Nested uses join the outer batch.
    """
    if getattr(_batches, "open", None) is not None:
        yield
        return
    batch = _batches.open = _Batch()
    try:
        yield
    finally:
        _batches.open = None
        batch.flush()


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
            _send([_relayed(row) for row in latest.values()])
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


def _relayed(row: Announcement) -> dict[str, Any]:
    """The message relaying ``row``. A clock announcement is named after its row, so
    that each server process reads the match once for it, not once per socket."""
    revision = f"relay-{row.pk}" if row.clock else ""
    return event_message(row.match_id, row.seq, clock=row.clock, revision=revision)


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
    if _own_loop is not None and not _in_server_thread():
        _own_loop.run(_sending(messages))
    else:
        async_to_sync(_sending)(messages)


def _send_soon(messages: list[dict[str, Any]]) -> Future[None]:
    """Start sending ``messages`` and return the send, to be waited for later.

    From the process's own loop the send runs there while this thread goes
    on; elsewhere it is made at once and returned done.
    """
    if _own_loop is not None and not _in_server_thread():
        return _own_loop.submit(_sending(messages))
    done: Future[None] = Future()
    try:
        _send(messages)
    except Exception as error:  # each layer backend fails its own way
        done.set_exception(error)
    else:
        done.set_result(None)
    return done


async def _sending(messages: list[dict[str, Any]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        logger.warning("no channel layer: %s announcements not sent", len(messages))
        return
    await asyncio.gather(
        *(layer.group_send(match_group(message["match"]), message) for message in messages)
    )


def _in_server_thread() -> bool:
    """True in a thread a server's event loop runs synchronous code in: ``async_to_sync``
    then sends from that loop, whose layer connections last already."""
    return getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None


class _OwnLoop:
    """An event loop kept running in a thread of its own, for a process without one."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="announcements", daemon=True).start()

    def run(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` in the kept loop and wait for it; raises what it raises."""
        self.submit(coroutine).result(SEND_TIMEOUT)

    def submit(self, coroutine: Coroutine[Any, Any, None]) -> Future[None]:
        """Start ``coroutine`` in the kept loop; the future holds its outcome."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)


_own_loop: _OwnLoop | None = None


def send_from_own_loop() -> None:
    """Send announcements from one event loop kept for this process (the worker's).

    Only for a process with no event loop of its own: the channel layer
    keeps its connections per loop, so they then last from send to send.
    """
    global _own_loop
    if _own_loop is None:
        _own_loop = _OwnLoop()
