"""The worker inside the server process: the embedded default's bots and timers.

Without Redis there is one server process and its channel layer lives in
memory, so the worker runs there (``WORKER_IN_SERVER``, set by
``scripts/run.sh`` when ``REDIS_URL`` is unset): each pass of
``due_turns.advance_due`` runs in a thread of the server's event loop, and
the moves it records are announced to the sockets of the same process, with
their outcome (``games.match.broadcast``), so no process watches the
database for them. Between passes it sleeps until the next deadline or
until an action sets a sooner one (``games.worker.alarm``), and at most a
heartbeat (``games.worker.heartbeat``) apart.

With ``REDIS_URL`` the separate ``manage.py run_worker`` stays.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError

from games.worker import analysis, due_turns, heartbeat
from games.worker.alarm import ALARM, Alarm
from games.worker.chores import Chores

logger = logging.getLogger("games.worker")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
Application = Callable[[Scope, Receive, Send], Awaitable[None]]


_next_beat = 0.0
# The housekeeping of the separate worker: expired waiting tables and sessions.
_chores = Chores()
# Finished deals are analysed in a low-priority process when nothing is due.
ANALYST = analysis.Analyst()


def _pass() -> tuple[int, datetime | None]:
    """One pass, as the separate worker makes it: the heartbeat, the outbox
    relay, the due turns, a few deals of an upload, the chores, then the deal
    analysis. Returns the turns played (plus one while an upload is being
    stored), and the next deadline when nothing was done."""
    global _next_beat
    # Due turns first: the analysis under way waits (games.worker.analysis).
    ANALYST.make_way()
    try:
        # Unlike the separate worker's, this pass sends each announcement as
        # its turn commits (no broadcast.batched()): the in-memory layer sends
        # at no cost, and holding them would delay every push by the rest of
        # the pass (docs/performance.md, "The worker inside the server sends at once").
        if time.monotonic() >= _next_beat:
            heartbeat.beat()
            _next_beat = time.monotonic() + heartbeat.BEAT_EVERY
        _chores.relay()
        played = due_turns.advance_due()
        played += int(_chores.store_imports())
        _chores.run_due()
        # Due turns first: a new analysis starts only after a pass with none.
        analysis.analyse_safely(ANALYST, idle=not played)
        return played, None if played else due_turns.next_deadline()
    except DatabaseError:
        logger.exception("worker: database error; retrying")
        _next_beat = 0.0
        return 0, None


async def work(alarm: Alarm = ALARM) -> None:
    """Play due turns in this process's event loop until cancelled."""
    logger.info("worker: playing due turns inside the server process")
    run_pass = database_sync_to_async(_pass, thread_sensitive=False)
    while True:
        try:
            played, until = await run_pass()
            if played:
                # Busy tables are served again at once, after the loop's other work.
                await asyncio.sleep(0)
                continue
            # At most a heartbeat apart, so that no pause is taken for an outage.
            longest = min(settings.WORKER_INTERVAL, heartbeat.BEAT_EVERY)
            ANALYST.go_on_before(until)
            await asyncio.to_thread(alarm.sleep, until, longest)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The server goes on serving; the worker tries again in a second.
            logger.exception("worker: a pass failed")
            await asyncio.sleep(1.0)


class WorkerInServer:
    """Wraps the ASGI application; with ``WORKER_IN_SERVER``, starts the worker on first use."""

    def __init__(self, application: Application) -> None:
        self.application = application
        self.task: asyncio.Task[None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.task is None and settings.WORKER_IN_SERVER:
            self.task = asyncio.get_running_loop().create_task(work())
        await self.application(scope, receive, send)
