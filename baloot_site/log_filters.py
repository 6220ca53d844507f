"""Filters for the site's log: what is not a fault is not logged as one."""

from __future__ import annotations

import asyncio
import logging


class CancelledCleanUp(logging.Filter):
    """Drops channels_redis's traceback for a socket cancelled while it unsubscribes.

    When a server stops, daphne cancels the sockets still closing; the
    pub/sub layer then logs "Unexpected exception while cleaning-up channel"
    with the CancelledError, though a cancelled clean-up is what a stop is.
    Every other record of that logger goes through.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, asyncio.CancelledError)
