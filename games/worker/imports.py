"""Uploaded documents stored in the background: a few deals per pass, a deal per transaction.

``store_some`` is called after each of the worker's passes over the due
turns (in ``manage.py run_worker`` and in the worker inside the server). It
stores up to ``IMPORT_DEALS_PER_PASS`` deals of the oldest queued import
(``services.store_import_deals``), each deal in a transaction of its own, so
neither the database (SQLite's single write lock included) nor the worker
is held by an import for more than a moment: players' moves, bots and
timers go on between the deals. A worker that dies mid-import leaves the
job to the next one once its lease runs out, from its last stored deal.
"""

from __future__ import annotations

from django.conf import settings

from games.match import services


def store_some() -> bool:
    """Store the next few deals of an import; True when there was one to work on.

    Raises DatabaseError.
    """
    return services.store_import_deals(settings.IMPORT_DEALS_PER_PASS)
