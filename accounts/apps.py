"""The accounts app."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """Players' accounts and profiles."""

    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # Connects the login signal that restores a player's saved language.
        from accounts import language  # noqa: F401
