"""``manage.py run_worker``: play bots' turns and expired timers until stopped.

Run one beside the web server processes (``make run`` starts one). Any
number may run against the same database: each due turn is recorded once
(``games.worker.due_turns``). Between passes it sleeps until the next
deadline, or until a sooner one is announced through Redis
(``games.worker.alarm``), and at most RELAY_POLL seconds, for the outbox of
a process that died (``games.match.broadcast``). SIGTERM or SIGINT stops the
loop after the current pass.

``--shards N --shard K`` shares the matches out between N workers, this one
playing those whose id modulo N is K (``games.worker.due_turns.Shard``).
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from datetime import datetime
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, close_old_connections, connection

from baloot_site.collector import tune_for_server
from games.match import broadcast
from games.worker import alarm, analysis, due_turns, heartbeat, imports, priority
from games.worker.chores import Chores

logger = logging.getLogger("games.worker")

# The longest an idle worker sleeps before looking at the outbox again.
RELAY_POLL = 0.25


def _keep_connection() -> None:
    """Keep the worker's database connection from pass to pass, unless it breaks.

    The site hands its connections back after every request (CONN_MAX_AGE 0:
    an ASGI request runs in a thread of its own, and PostgreSQL's pool keeps
    them). The worker is one thread making a pass every turn or two: handing
    the connection back to the pool at each pass and taking it again, with
    the pool's check, made a pass with nothing due dearer for the worker
    and for PostgreSQL alike (measured in docs/performance.md,
    ``bench/worker_bench.py --idle-passes``).
    ``close_old_connections`` still drops a connection left broken or
    inside a transaction.
    """
    if connection.connection is not None:
        connection.close_at = None


class Command(BaseCommand):
    help = "Play bots' turns and expired timers until stopped (SIGTERM or SIGINT)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--once",
            action="store_true",
            help="Make one pass over the due turns, print how many were played, and exit.",
        )
        parser.add_argument(
            "--analyse",
            action="store_true",
            help="Analyse every finished deal that has no current analysis here and now, "
            "print how many, and exit.",
        )
        parser.add_argument(
            "--shards",
            type=int,
            default=1,
            help="How many workers share the matches out (default 1: this one plays them all).",
        )
        parser.add_argument(
            "--shard",
            type=int,
            default=0,
            help="Which share this worker plays: the matches whose id modulo --shards is this "
            "(0 to shards-1); a turn of a share whose worker fell silent is played too, once "
            "it is a few seconds overdue.",
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=None,
            help="Seconds to wait when nothing was due (default: the WORKER_INTERVAL setting).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # A long-running process: fewer, shorter collector stops between turns.
        tune_for_server()
        # This process has no event loop: announcements get one that lasts.
        broadcast.send_from_own_loop()
        # The deadlines this worker sets ring its own alarm; no other worker needs them.
        alarm.keep_wakeups_local()
        try:
            shard = due_turns.Shard(options["shard"], options["shards"])
        except ValueError as error:
            raise CommandError(str(error)) from None
        self.shard = shard if shard.count > 1 else None
        if options["analyse"]:
            skip: set[tuple[int, int]] = set()
            done = 0
            while analysis.analyse_next(skip) is not None:
                done += 1
            self.stdout.write(f"{done} deals analysed.")
            return
        if options["once"]:
            with broadcast.batched():
                heartbeat.beat()
                broadcast.relay_pending()
                played = due_turns.advance_due(shard=self.shard)
            self.stdout.write(f"{played} due turns played.")
            imports.store_some()
            return
        interval = options["interval"]
        if interval is None:
            interval = settings.WORKER_INTERVAL
        # Below the server processes (games.worker.priority): the thread that
        # sends the announcements was started before and keeps their priority,
        # so a committed turn reaches them at once. A timer that fires late
        # because the servers are busy gives its player more time, never less.
        priority.lower_this_thread(settings.WORKER_NICENESS, idle=settings.WORKER_IDLE)
        stop = threading.Event()

        def request_stop(signum: int, frame: FrameType | None) -> None:
            logger.info("worker: %s received, stopping", signal.Signals(signum).name)
            stop.set()

        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGINT, request_stop)
        logger.info(
            "worker: started%s; sleeping until the next deadline or a wake-up, %ss at most",
            f" (shard {self.shard.index} of {self.shard.count})" if self.shard else "",
            min(interval, RELAY_POLL),
        )
        if settings.REDIS_URL:
            threading.Thread(
                target=alarm.listen_to_redis,
                args=(alarm.ALARM, stop),
                name="worker-wake-ups",
                daemon=True,
            ).start()
        # Expired waiting tables and sessions (games.worker.chores).
        self.chores = Chores()
        # Finished deals, analysed in a low-priority process when nothing is due.
        analyst = self.analyst = analysis.Analyst()
        while not stop.is_set():
            behind = self._pass()
            # A full batch or an upload is served again at once; otherwise the
            # worker sleeps until the next deadline or a sooner announced one
            # (at once if one fell due during the pass), but never so long that
            # an announcement a dead process left unsent waits more than a
            # moment. With bots' turns falling due one after another, a pass
            # plays one or two: an empty pass between them cost as much again.
            if not behind:
                until = self._next_deadline()
                analyst.go_on_before(until)
                alarm.ALARM.sleep(until, min(interval, RELAY_POLL), stop)
        analyst.close()
        self.analyst = None
        connection.close()
        logger.info("worker: stopped")

    next_beat = 0.0
    # Set by handle(): the share of the matches this worker plays (None: all).
    shard: due_turns.Shard | None = None
    # Set by handle(): the deal analysis beside the due turns.
    analyst: analysis.Analyst | None = None

    def _next_deadline(self) -> datetime | None:
        """The next deadline, or None (sleep the longest) when the database fails."""
        try:
            return due_turns.next_deadline(self.shard)
        except DatabaseError:
            logger.exception("worker: database error; retrying")
            connection.close()
            # As in _pass: look for an outage before any timer is played.
            self.next_beat = 0.0
            return None

    def _pass(self) -> bool:
        """One pass: the heartbeat (giving back an outage's time first), the outbox
        relay, advance_due, a few deals of an upload, the chores, then the deal
        analysis; a database failure is logged and retried later. Returns True
        when work is left waiting: more due turns than one pass plays, or an
        upload still being stored (so that no sleep comes between).
        """
        _keep_connection()
        close_old_connections()
        # Due turns first: the analysis under way waits (games.worker.analysis).
        if self.analyst is not None:
            self.analyst.make_way()
        try:
            # The pass's announcements go out together (at most BATCH_WAIT apart).
            with broadcast.batched():
                if time.monotonic() >= self.next_beat:
                    heartbeat.beat()
                    self.next_beat = time.monotonic() + heartbeat.BEAT_EVERY
                self.chores.relay()
                played = due_turns.advance_due(shard=self.shard)
            importing = self.chores.store_imports()
            self.chores.run_due()
            behind = played >= due_turns.BATCH or importing
            # Due turns first: a new analysis starts only after a pass that
            # left none waiting.
            if self.analyst is not None:
                analysis.analyse_safely(self.analyst, idle=not behind)
            return behind
        except DatabaseError:
            logger.exception("worker: database error; retrying")
            # A broken connection is dropped so that the next pass reconnects.
            connection.close()
            # The database was out of reach: look for an outage before any
            # timer is played.
            self.next_beat = 0.0
            return False
