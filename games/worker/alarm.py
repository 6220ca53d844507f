"""When the worker wakes: at the next deadline, or sooner when a sooner one is set.

The worker does not scan the database at a fixed rate. After a pass that
played nothing it asks for the earliest deadline of a running match
(``due_turns.next_deadline``) and sleeps until then. Whatever sets a sooner
deadline wakes it: every announcement carries the match's deadline after
the change (``games.match.broadcast``), and ``ALARM.ring`` is called with
it in the process that made the change (``on_announcement``, which
``GamesConfig.ready`` makes a listener of every process's announcements).
A worker inside the server process (``WORKER_IN_SERVER``, the embedded
default) hears those rings directly; a
separate worker (``manage.py run_worker``) hears them through a Redis
channel that every process with ``REDIS_URL`` publishes to (``wake_channel``).
That channel is plain Redis pub/sub, outside the encrypted channel layer: it
carries a deadline's time and nothing else, its name holds the database
index as the layer's channels do, and a message that is not a time is
ignored (anyone who can publish there can only wake the worker early).

``WORKER_INTERVAL`` caps one sleep: a safety net for a deadline set by a
process that cannot wake the worker (a management command; a second process
without Redis).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from baloot_site.environment import redis_index
from games.match.broadcast import Notice

logger = logging.getLogger("games.worker")

# A sleeper looks at its stop flag at least this often (seconds).
STOP_CHECK = 0.5


class Alarm:
    """A sleep until a deadline that any thread may bring forward."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._soonest: datetime | None = None

    def ring(self, deadline: datetime) -> None:
        """Bring the sleeper's wake-up forward to ``deadline`` if that is sooner.

        A ring while nobody sleeps is kept for the next sleep.
        """
        with self._condition:
            if self._soonest is None or deadline < self._soonest:
                self._soonest = deadline
                self._condition.notify_all()

    def sleep(
        self, until: datetime | None, longest: float, stop: threading.Event | None = None
    ) -> None:
        """Sleep until ``until`` (None: no deadline known) or a sooner ring, ``longest``
        seconds at most, or until ``stop`` is set."""
        give_up = time.monotonic() + longest
        with self._condition:
            if until is not None:
                self.ring(until)
            while stop is None or not stop.is_set():
                left = give_up - time.monotonic()
                if self._soonest is not None:
                    left = min(left, (self._soonest - timezone.now()).total_seconds())
                if left <= 0:
                    break
                self._condition.wait(timeout=min(left, STOP_CHECK))
            self._soonest = None


ALARM = Alarm()


def wake_channel(url: str) -> str:
    """The Redis channel that carries new deadlines to a separate worker process, for
    REDIS_URL ``url``: Redis's pub/sub ignores the database index, so the name holds it,
    and sites on other indexes of the server do not wake this one's workers."""
    return f"baloot.{redis_index(url)}.worker.wake"


_redis: Any = None
# Whether this process tells the separate workers of the deadlines it sets.
_publishing = True


def keep_wakeups_local() -> None:
    """Stop publishing this process's deadlines on Redis (a worker's own).

    A worker sets the deadlines of the turns it plays, and its own alarm
    rings for them; publishing them too cost a Redis round trip per turn and
    woke every other worker's listener for a turn that is not theirs.
    """
    global _publishing
    _publishing = False


def on_announcement(announcement: Notice) -> None:
    """Wake the worker for a new deadline: in this process, and through Redis if set.

    Every announcement of the process comes here (``GamesConfig.ready`` registers it).
    """
    deadline = announcement.deadline
    if deadline is None:
        return
    ALARM.ring(deadline)
    if _publishing and settings.REDIS_URL and not settings.WORKER_IN_SERVER:
        _publish(deadline)


def _publish(deadline: datetime) -> None:
    """Tell a separate worker about ``deadline``; a failure only delays it (WORKER_INTERVAL)."""
    global _redis
    try:
        if _redis is None:
            import redis

            _redis = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        _redis.publish(wake_channel(settings.REDIS_URL), deadline.isoformat())
    except Exception:
        logger.warning("could not wake the worker through Redis", exc_info=True)


def listen_to_redis(alarm: Alarm, stop: threading.Event) -> None:
    """Ring ``alarm`` with every deadline published on Redis until ``stop`` (a thread's loop)."""
    import redis

    while not stop.is_set():
        try:
            client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=30)
            subscription = client.pubsub(ignore_subscribe_messages=True)
            subscription.subscribe(wake_channel(settings.REDIS_URL))
            while not stop.is_set():
                message = subscription.get_message(timeout=STOP_CHECK)
                if message is not None:
                    _ring_for(alarm, message["data"])
        except (redis.RedisError, OSError):
            logger.warning("worker: no wake-ups from Redis; retrying in a second", exc_info=True)
            stop.wait(1.0)


def _ring_for(alarm: Alarm, data: Any) -> None:
    """Ring ``alarm`` with the deadline a wake-up message names; ignore anything else."""
    try:
        deadline = datetime.fromisoformat(bytes(data).decode("ascii"))
    except (TypeError, ValueError):
        logger.warning("worker: ignored a wake-up that names no time")
        return
    if deadline.tzinfo is None:
        logger.warning("worker: ignored a wake-up that names no time zone")
        return
    alarm.ring(deadline)
