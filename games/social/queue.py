"""Quick match: a first-come, first-served queue that seats strangers four at a time.

The queue is a table of the database, so every server process shares it.
Matching takes the four oldest live entries of one mode and play timer with
``SELECT ... FOR UPDATE SKIP LOCKED``: two processes matching at once lock
disjoint entries instead of waiting for each other, and an entry is marked
matched in the same transaction that seats its player, so nobody is seated
twice. A matcher that finds fewer than four free entries while four or more
are waiting (the others are locked by a matcher about to give up) tries again
a moment later, so a wake-up is never lost; each server process also tries
every few seconds for the pools its waiting pages are in. The four sit in an
order the site draws, so that the order of joining picks nobody's partner: a
quick match is rated play (``games.ratings.policy``).

An entry is *live* while its player's queue page is open: a socket row
(``QueueSocket``) refreshed every ``TICK_SECONDS``, or a join younger than
``GRACE_SECONDS`` (the page is still loading). Closing the last page leaves
the queue at once; a reload within ``GRACE_SECONDS`` takes the place back.

After ``QUICK_MATCH_BOT_WAIT`` seconds a waiting player may start at once
with bots in the other seats; such a match is marked ``unrated``.

One match at a time: a player seated at a running match may not join, and
an entry whose player sits at one (they started a match elsewhere since) is
not matched. Each table quick match makes counts against the ``TABLES``
limit of every person seated there (``games.match.limits``), as a table
opened in the lobby does; a player past it may not join.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.match import access, dealing, limits, services
from games.match.errors import (
    AlreadyPlaying,
    InvalidSetting,
    NotAllowed,
    ServiceError,
    TooManyTables,
)
from games.match.models import Match, Seat
from games.social.broadcast import send_on_commit
from games.social.models import QueueEntry, QueueSocket

logger = logging.getLogger(__name__)

TABLE_SIZE = 4
# How often an open queue page refreshes its socket row and its picture.
TICK_SECONDS = 5.0
# A socket row older than this belongs to a server that died.
STALE_SECONDS = 3 * TICK_SECONDS
# How long a fresh entry waits for its page's socket, and a reload keeps the place.
GRACE_SECONDS = 10.0
# A matcher that lost a race tries again this many times, a moment apart.
MATCH_ATTEMPTS = 5


class NotInQueue(ServiceError):
    """The player is not waiting for a quick match."""

    code = "not_in_queue"
    default_message = _("You are not waiting for a game.")


class TooEarlyForBots(ServiceError):
    """Bots are offered only after a wait."""

    code = "too_early_for_bots"
    default_message = _("Wait a little longer for people before filling the table with bots.")


@dataclass(frozen=True)
class QueueStatus:
    """What a waiting player's page shows."""

    entry: QueueEntry | None
    waiting: int
    waited_seconds: float
    bots_after_seconds: float

    @property
    def may_fill_with_bots(self) -> bool:
        return self.entry is not None and self.bots_after_seconds <= 0


def pool_group(mode: str, play_timer: int) -> str:
    """The channel-layer group of the pages waiting for one mode and timer."""
    return f"queue-{mode}-{play_timer}"


def user_group(user_id: int) -> str:
    """The channel-layer group of one player's open queue pages."""
    return f"queue-user-{user_id}"


def bot_wait() -> float:
    """Seconds a player waits before bots are offered."""
    return float(getattr(settings, "QUICK_MATCH_BOT_WAIT", 45.0))


# --- Joining and leaving ------------------------------------------------------


def join(user: Any, *, mode: str, play_timer: int) -> QueueEntry:
    """Put ``user`` in the queue for ``mode`` and ``play_timer``, then try to seat four.

    Waiting already for the same game changes nothing; waiting for another
    one moves the player to the end of the new queue. Raises NotAllowed,
    InvalidSetting, AlreadyPlaying (seated at a running match), TooManyTables.
    """
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Please log in first."))
    if mode not in Match.Mode.values:
        raise InvalidSetting(_("Unknown game mode: choose Classic or Quick."))
    if play_timer not in [seconds for seconds, _label in Match.PLAY_TIMER_CHOICES]:
        raise InvalidSetting(_("The play timer must be 10, 15 or 30 seconds."))
    _check_may_play(user, limits.TABLES)
    with transaction.atomic():
        _lock_player(user)
        current = (
            QueueEntry.objects.select_for_update()
            .filter(user=user, status=QueueEntry.Status.WAITING)
            .first()
        )
        if current is not None and (current.mode, current.play_timer) == (mode, play_timer):
            entry = current
        else:
            if current is not None:
                _leave(current, QueueEntry.Status.CANCELLED)
            entry = QueueEntry.objects.create(
                user=user, mode=mode, play_timer=play_timer, joined_at=timezone.now()
            )
        _announce_pool_on_commit(mode, play_timer)
    match_waiting(mode, play_timer)
    entry.refresh_from_db()
    return entry


def _check_may_play(user: Any, group: str) -> None:
    """Raise AlreadyPlaying when ``user`` sits at a running match, TooManyTables past ``group``."""
    running = access.running_match_of(user)
    if running is not None:
        raise AlreadyPlaying(match=running.pk)
    if limits.exhausted(group, user.pk):
        raise TooManyTables()


def _lock_player(user: Any) -> None:
    """Queue up one player's joins behind each other (their user row's lock).

    Locking their waiting entry is not enough: with none yet, two joins at
    once both found nothing to lock and both inserted one, and the second
    broke the one-wait-per-player constraint (an IntegrityError, a 500).
    """
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def cancel(user: Any) -> None:
    """Take ``user`` out of the queue; raises NotInQueue when they are not in it."""
    with transaction.atomic():
        entry = (
            QueueEntry.objects.select_for_update()
            .filter(user=user, status=QueueEntry.Status.WAITING)
            .first()
        )
        if entry is None:
            raise NotInQueue()
        _leave(entry, QueueEntry.Status.CANCELLED)
        _announce_pool_on_commit(entry.mode, entry.play_timer)


def _leave(entry: QueueEntry, status: str = QueueEntry.Status.LEFT) -> None:
    entry.status = status
    entry.left_at = timezone.now()
    entry.save(update_fields=["status", "left_at"])


def page_opened(user: Any, channel_name: str) -> None:
    """A queue page's socket opened: it keeps the player's place, or retakes it after a reload."""
    now = timezone.now()
    with transaction.atomic():
        # A join at the same moment must not make a second waiting entry.
        _lock_player(user)
        QueueSocket.objects.update_or_create(
            channel_name=channel_name, defaults={"user": user, "seen_at": now}
        )
        waiting = QueueEntry.objects.filter(user=user, status=QueueEntry.Status.WAITING)
        if waiting.exists():
            return
        recent = (
            QueueEntry.objects.select_for_update()
            .filter(
                user=user,
                status=QueueEntry.Status.LEFT,
                left_at__gte=now - timedelta(seconds=GRACE_SECONDS),
            )
            .order_by("-left_at")
            .first()
        )
        if recent is not None:
            recent.status = QueueEntry.Status.WAITING
            recent.left_at = None
            recent.save(update_fields=["status", "left_at"])
            _announce_pool_on_commit(recent.mode, recent.play_timer)


def page_seen(channel_name: str) -> None:
    """One open queue page is still there."""
    pages_seen([channel_name])


def pages_seen(channel_names: list[str]) -> None:
    """Open queue pages are still there: one write for all of a server process's pages."""
    QueueSocket.objects.filter(channel_name__in=channel_names).update(seen_at=timezone.now())


def page_closed(user: Any, channel_name: str) -> None:
    """A queue page's socket closed: when it was the player's last page, they leave the queue."""
    now = timezone.now()
    with transaction.atomic():
        QueueSocket.objects.filter(channel_name=channel_name).delete()
        others = QueueSocket.objects.filter(
            user=user, seen_at__gte=now - timedelta(seconds=STALE_SECONDS)
        )
        if others.exists():
            return
        entry = (
            QueueEntry.objects.select_for_update()
            .filter(user=user, status=QueueEntry.Status.WAITING)
            .first()
        )
        if entry is not None:
            _leave(entry)
            _announce_pool_on_commit(entry.mode, entry.play_timer)


# --- Matching -----------------------------------------------------------------


def live_entries(mode: str, play_timer: int, now: datetime | None = None) -> QuerySet[QueueEntry]:
    """The waiting entries of one pool whose player's page is open, oldest first."""
    now = now or timezone.now()
    open_page = QueueSocket.objects.filter(
        user=OuterRef("user"), seen_at__gte=now - timedelta(seconds=STALE_SECONDS)
    )
    playing = Seat.objects.filter(user=OuterRef("user"), match__status=Match.Status.PLAYING)
    return (
        QueueEntry.objects.filter(
            status=QueueEntry.Status.WAITING, mode=mode, play_timer=play_timer
        )
        .filter(Q(joined_at__gte=now - timedelta(seconds=GRACE_SECONDS)) | Exists(open_page))
        .exclude(Exists(playing))
        .order_by("joined_at", "id")
    )


def match_waiting(mode: str, play_timer: int) -> list[Match]:
    """Seat the oldest live waiting players four at a time; the tables started.

    Safe to call from any process at any time: each entry is taken under its
    row lock and marked matched in the transaction that seats its player.
    """
    made: list[Match] = []
    attempts = 0
    while attempts < MATCH_ATTEMPTS:
        try:
            match = _match_four(mode, play_timer)
        except _LostRace:
            match = None
        if match is not None:
            made.append(match)
            continue
        # Fewer than four free entries. If four or more are live, another
        # matcher holds some of them and may give up: look again shortly.
        if live_entries(mode, play_timer).count() < TABLE_SIZE:
            break
        attempts += 1
        time.sleep(random.uniform(0.02, 0.1))
    return made


def _match_four(mode: str, play_timer: int) -> Match | None:
    with transaction.atomic():
        entries = list(
            live_entries(mode, play_timer)
            .select_related("user")
            .select_for_update(skip_locked=True, of=("self",))[:TABLE_SIZE]
        )
        if len(entries) < TABLE_SIZE:
            return None
        # First come, first served to a table; the seats at it are drawn, so
        # that the order of joining picks nobody's partner.
        drawn = dealing.draw_seats([entry.user for entry in entries])
        people = dict(enumerate(drawn, 1))
        outcome = services.open_full_table(people, mode=mode, play_timer=play_timer)
        taken = QueueEntry.objects.filter(
            pk__in=[entry.pk for entry in entries], status=QueueEntry.Status.WAITING
        ).update(status=QueueEntry.Status.MATCHED, match=outcome.match)
        if taken != TABLE_SIZE:
            # Only possible where the database ignores row locks; undo it all.
            raise _LostRace()
        limits.count(limits.TABLES, [entry.user_id for entry in entries])
        for entry in entries:
            _announce_user_on_commit(entry.user_id)
        _announce_pool_on_commit(mode, play_timer)
    logger.info("quick match: match %s seated", outcome.match.pk)
    return outcome.match


class _LostRace(Exception):
    pass


def fill_with_bots(user: Any) -> Match:
    """Start ``user``'s quick match at once, bots in the other seats; never rated.

    Raises NotInQueue, TooEarlyForBots, AlreadyPlaying, TooManyTables (past
    the ``BOT_MATCHES`` limit, which the match counts against).
    """
    with transaction.atomic():
        entry = (
            QueueEntry.objects.select_for_update()
            .filter(user=user, status=QueueEntry.Status.WAITING)
            .first()
        )
        if entry is None:
            raise NotInQueue()
        if (timezone.now() - entry.joined_at).total_seconds() < bot_wait():
            raise TooEarlyForBots()
        _check_may_play(user, limits.BOT_MATCHES)
        outcome = services.open_full_table(
            {1: user}, mode=entry.mode, play_timer=entry.play_timer, unrated=True
        )
        entry.status = QueueEntry.Status.MATCHED
        entry.match = outcome.match
        entry.save(update_fields=["status", "match"])
        limits.count(limits.BOT_MATCHES, [user.pk])
        _announce_user_on_commit(user.pk)
        _announce_pool_on_commit(entry.mode, entry.play_timer)
    return outcome.match


def sweep(now: datetime | None = None) -> int:
    """Mark as left the entries whose pages are gone; forget dead sockets. The number left."""
    now = now or timezone.now()
    stale = now - timedelta(seconds=STALE_SECONDS)
    QueueSocket.objects.filter(seen_at__lt=stale).delete()
    open_page = QueueSocket.objects.filter(user=OuterRef("user"), seen_at__gte=stale)
    return (
        QueueEntry.objects.filter(
            status=QueueEntry.Status.WAITING,
            joined_at__lt=now - timedelta(seconds=GRACE_SECONDS),
        )
        .exclude(Exists(open_page))
        .update(status=QueueEntry.Status.LEFT, left_at=now)
    )


# --- What the page shows --------------------------------------------------------


def status_of(user: Any) -> QueueStatus:
    """The player's place in the queue as their page shows it."""
    now = timezone.now()
    entry = QueueEntry.objects.filter(user=user, status=QueueEntry.Status.WAITING).first()
    if entry is None:
        return QueueStatus(None, 0, 0.0, 0.0)
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    waiting = live_entries(entry.mode, entry.play_timer, now).count()
    return QueueStatus(entry, max(waiting, 1), waited, max(0.0, bot_wait() - waited))


def seated_by(user: Any, entry_id: int) -> Match | None:
    """The table ``user``'s queue entry ``entry_id`` seated them at, while it is not over."""
    entry = (
        QueueEntry.objects.filter(pk=entry_id, user=user, status=QueueEntry.Status.MATCHED)
        .select_related("match")
        .first()
    )
    if entry is None or entry.match is None or entry.match.is_over:
        return None
    return entry.match


# --- Telling the pages --------------------------------------------------------


def _announce_pool_on_commit(mode: str, play_timer: int) -> None:
    # Only the number waiting changes for the pool's other pages.
    send_on_commit(pool_group(mode, play_timer), {"type": "queue.pool"})


def _announce_user_on_commit(user_id: int) -> None:
    send_on_commit(user_group(user_id), {"type": "queue.changed"})
