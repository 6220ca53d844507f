"""The worker's housekeeping: tables nobody started, and expired sessions.

- A waiting table that has not started ``WAITING_TABLE_EXPIRY_SECONDS``
  after it was opened is deleted: it never had a deal, so nothing of a
  match is lost, and the lobby and the database stop growing with tables
  opened and forgotten.
- Once a day, Django's ``clearsessions`` deletes the sessions that have
  expired, which Django itself never does.

``Chores.run_due`` is called after each of the worker's passes and does a
chore only when it is due, so it costs nothing in between.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from games.match.models import Match

logger = logging.getLogger("games.worker")

# How often the worker looks for expired waiting tables, and cleans sessions.
EXPIRY_EVERY = 60.0
SESSIONS_EVERY = 24 * 60 * 60.0


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

    def run_due(self) -> None:
        now = time.monotonic()
        if now >= self.next_expiry:
            self.next_expiry = now + EXPIRY_EVERY
            expire_waiting_tables()
        if now >= self.next_sessions:
            self.next_sessions = now + SESSIONS_EVERY
            clear_sessions()
