"""The games app."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """Matches, seats and the event log."""

    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        """Connect the app's Django signal receivers, here rather than at import.

        The accounts app imports nothing from games (tests/test_boundaries.py):
        games hears of a session that ends through ``user_logged_out`` and
        ``accounts.signals.password_changed``, connected below.
        """
        from django.contrib.auth.signals import user_logged_out

        from accounts.signals import password_changed
        from games.match import broadcast
        from games.ratings import recording
        from games.social import session_end as queue_session_end
        from games.table import session_end as table_session_end
        from games.worker import alarm

        # Ratings and players' statistics follow each deal and match end.
        recording.connect()
        # The one listener of this process's announcements: a new deadline
        # wakes the worker (its versions reach games.match.versions directly).
        broadcast.listen(alarm.on_announcement)
        # A player who logs out leaves the quick-match queue, pages and all.
        user_logged_out.connect(
            queue_session_end.logged_out, dispatch_uid="games.social.session_end"
        )
        # A session that ends, by logging out or by a new password, closes
        # the player's open table pages, which stop receiving their hand.
        for signal in (user_logged_out, password_changed):
            signal.connect(table_session_end.session_ended, dispatch_uid="games.table.session_end")
