"""The health app: the page that reports the database, the channel layer and the worker."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HealthConfig(AppConfig):
    name = "health"
    verbose_name = _("Health")
    default_auto_field = "django.db.models.BigAutoField"
