"""The worker's heartbeat: when each worker last finished a pass."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkerBeat(models.Model):
    """One row per worker name, updated as the worker runs (``health.beats.beat``)."""

    name = models.CharField(_("worker"), max_length=100, unique=True)
    beat_at = models.DateTimeField(_("last pass"))

    class Meta:
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")

    def __str__(self) -> str:
        return f"{self.name} @ {self.beat_at:%Y-%m-%d %H:%M:%S}"
