"""The games app."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """Matches, seats and the event log."""

    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Ratings and players' statistics follow each deal and match end.
        from games.ratings import recording

        recording.connect()
