"""Where Django looks for the app's models: they live in ``games.match.models``.

Django imports ``<app>.models`` when it loads the ``games`` app, and the
first migration names ``games.models.new_invite_token``; both keep working
through this module, so moving the models changed no migration.
"""

from __future__ import annotations

from games.match.models import DealSnapshot, Event, Match, Seat, new_invite_token

__all__ = ["DealSnapshot", "Event", "Match", "Seat", "new_invite_token"]
