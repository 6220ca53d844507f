"""Whether a worker runs: the age of the workers' heartbeat (``games.worker.heartbeat``).

Every running worker writes the one heartbeat row about once a second; the
health page calls the worker alive while that beat is younger than
``settings.HEALTH_WORKER_STALE_SECONDS``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.worker.models import WorkerHeartbeat


def latest_beat() -> datetime | None:
    """When a worker last ran, or None if none ever did."""
    return WorkerHeartbeat.objects.values_list("beat_at", flat=True).first()


def worker_alive(now: datetime | None = None) -> bool:
    """True when a worker has run within HEALTH_WORKER_STALE_SECONDS."""
    beat = latest_beat()
    if beat is None:
        return False
    stale = timedelta(seconds=settings.HEALTH_WORKER_STALE_SECONDS)
    return (now or timezone.now()) - beat <= stale
