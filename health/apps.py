"""The health app: the worker's heartbeat and the page that reads it."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HealthConfig(AppConfig):
    name = "health"
    verbose_name = _("Health")
    default_auto_field = "django.db.models.BigAutoField"
