"""The games app."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """Matches, seats and the event log."""

    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        # Ratings and players' statistics follow each deal and match end.
        from games.match import broadcast
        from games.ratings import recording
        from games.social import session_end
        from games.worker import alarm

        recording.connect()
        # The one listener of this process's announcements: a new deadline
        # wakes the worker (its versions reach games.match.versions directly).
        broadcast.listen(alarm.on_announcement)
        # A player who logs out leaves the quick-match queue, pages and all.
        user_logged_out.connect(session_end.logged_out, dispatch_uid="games.social.session_end")
