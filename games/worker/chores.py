"""The worker's housekeeping: tables nobody started, expired sessions, and the
checks a pass makes besides the due turns.

- A waiting table that has not started ``WAITING_TABLE_EXPIRY_SECONDS``
  after it was opened is deleted: it never had a deal, so nothing of a
  match is lost, and the lobby and the database stop growing with tables
  opened and forgotten.
- Once a day, Django's ``clearsessions`` deletes the sessions that have
  expired, which Django itself never does.

``Chores.run_due`` is called after each of the worker's passes and does a
chore only when it is due, so it costs nothing in between.

A busy worker makes a pass for every few turns, and each pass used to look
at the outbox and the upload queue too: queries that find nothing nearly
always. ``Chores.relay`` and ``Chores.store_imports`` look at most every
``RELAY_EVERY`` and ``IMPORTS_EVERY`` seconds of the site's clock (an upload
being stored is served at every pass until it is done), well within the
second in which an unsent announcement must reach its pages.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from games.match import broadcast
from games.match.models import Match
from games.worker import imports

logger = logging.getLogger("games.worker")

# How often the worker looks for expired waiting tables, and cleans sessions.
EXPIRY_EVERY = 60.0
SESSIONS_EVERY = 24 * 60 * 60.0
# How often a pass looks at the outbox, and at the upload queue when idle.
RELAY_EVERY = timedelta(seconds=0.2)
IMPORTS_EVERY = timedelta(seconds=1.0)


def expire_waiting_tables() -> int:
    """Delete the waiting tables opened longer ago than the expiry; returns how many."""
    cutoff = timezone.now() - timedelta(seconds=settings.WAITING_TABLE_EXPIRY_SECONDS)
    stale = Match.objects.filter(status=Match.Status.WAITING, created_at__lt=cutoff)
    _deleted, by_model = stale.delete()
    count = by_model.get(Match._meta.label, 0)
    if count:
        logger.info("worker: %s waiting tables expired", count)
    return count


def clear_sessions() -> None:
    """Delete expired sessions (Django's ``clearsessions``)."""
    call_command("clearsessions")
    logger.info("worker: expired sessions cleared")


class Chores:
    """Runs each chore when it falls due, by the worker's own monotonic clock."""

    def __init__(self) -> None:
        self.next_expiry = 0.0
        # The first session clean-up a while after start, not at every restart.
        self.next_sessions = time.monotonic() + 60.0
        self.relays = Paced(RELAY_EVERY)
        self.uploads = Paced(IMPORTS_EVERY)

    def relay(self) -> int:
        """Send what dead processes left in the outbox (``broadcast.relay_pending``), when
        due; returns how many were sent. Raises DatabaseError."""
        now = timezone.now()
        if not self.relays.due(now):
            return 0
        sent = broadcast.relay_pending()
        self.relays.looked(now)
        return sent

    def store_imports(self) -> bool:
        """Store a few deals of an upload (``imports.store_some``) when one may be
        waiting; True when one was being stored. Raises DatabaseError."""
        now = timezone.now()
        if not self.uploads.due(now):
            return False
        storing = imports.store_some()
        self.uploads.looked(now, again=storing)
        return storing

    def run_due(self) -> None:
        now = time.monotonic()
        if now >= self.next_expiry:
            self.next_expiry = now + EXPIRY_EVERY
            expire_waiting_tables()
        if now >= self.next_sessions:
            self.next_sessions = now + SESSIONS_EVERY
            clear_sessions()


class Paced:
    """A look that is due at most once every ``every``, by the site's clock.

    A clock that went back (a test's, or the machine's being set) makes it
    due at once rather than never.
    """

    def __init__(self, every: timedelta) -> None:
        self.every = every
        self.last: datetime | None = None

    def due(self, now: datetime) -> bool:
        last = self.last
        return last is None or now >= last + self.every or now < last

    def looked(self, now: datetime, *, again: bool = False) -> None:
        """Record a look at ``now``; ``again``: it found work, look at the next pass too."""
        self.last = None if again else now
