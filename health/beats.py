"""Recording and reading the worker's heartbeat.

A worker calls ``Heart.beat()`` after each pass; the row is written at most
every ``BEAT_EVERY`` seconds, so an idle worker's passes cost no writes in
between. The health page calls the worker alive while a beat is younger
than ``settings.HEALTH_WORKER_STALE_SECONDS``.
"""

from __future__ import annotations

import os
import socket
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from health.models import WorkerBeat

BEAT_EVERY = 10.0


def worker_name() -> str:
    """This process's name as a worker: host and process number."""
    return f"{socket.gethostname()}:{os.getpid()}"


class Heart:
    """One worker's heartbeat, written at most every ``every`` seconds."""

    def __init__(self, name: str | None = None, every: float = BEAT_EVERY) -> None:
        self.name = name or worker_name()
        self.every = every
        self.last = -float("inf")

    def beat(self) -> None:
        """Record that the worker finished a pass, unless it did so a moment ago."""
        now = time.monotonic()
        if now - self.last < self.every:
            return
        WorkerBeat.objects.update_or_create(name=self.name, defaults={"beat_at": timezone.now()})
        self.last = now

    def stop(self) -> None:
        """Forget this worker: it stopped on purpose, it did not die."""
        WorkerBeat.objects.filter(name=self.name).delete()


def latest_beat() -> datetime | None:
    """When any worker last ran, or None if none ever did."""
    beat = WorkerBeat.objects.order_by("-beat_at").values_list("beat_at", flat=True).first()
    return beat


def worker_alive(now: datetime | None = None) -> bool:
    """True when some worker has run within HEALTH_WORKER_STALE_SECONDS."""
    beat = latest_beat()
    if beat is None:
        return False
    stale = timedelta(seconds=settings.HEALTH_WORKER_STALE_SECONDS)
    return (now or timezone.now()) - beat <= stale
