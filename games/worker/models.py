"""The worker's own rows: its heartbeat (``games.worker.heartbeat`` reads and writes it)."""

from __future__ import annotations

from django.db import models

# The row of the beat every worker writes.
ROW = 1
# The beat of the worker of shard K is row SHARD_ROWS + K.
SHARD_ROWS = 100


class WorkerHeartbeat(models.Model):
    """When a worker last ran (row ROW), and when each shard's worker last ran (rows
    SHARD_ROWS + K), each written about once a second.

    Internal bookkeeping, shown nowhere.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=ROW)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"worker heartbeat at {self.beat_at:%Y-%m-%d %H:%M:%S}"
