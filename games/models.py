"""Where Django looks for the app's models: each package keeps its own in a ``models`` module.

Django imports ``<app>.models`` when it loads the ``games`` app, and the
first migration names ``games.models.new_invite_token``; both keep working
through this module, so moving the models changed no migration.
"""

from __future__ import annotations

from games.match.models import (
    Announcement,
    DealAnalysis,
    DealSnapshot,
    Event,
    ImportJob,
    Match,
    Seat,
    new_invite_token,
)
from games.ratings.models import PlayerRating, PlayerStats, RatedMatch, RatedSeat
from games.social.models import (
    ChatBan,
    ChatMessage,
    ChatMute,
    ChatReport,
    QueueEntry,
    QueueSocket,
    RematchOffer,
)
from games.worker.models import WorkerHeartbeat

__all__ = [
    "Announcement",
    "ChatBan",
    "ChatMessage",
    "ChatMute",
    "ChatReport",
    "DealAnalysis",
    "DealSnapshot",
    "Event",
    "ImportJob",
    "Match",
    "PlayerRating",
    "PlayerStats",
    "QueueEntry",
    "QueueSocket",
    "RatedMatch",
    "RatedSeat",
    "RematchOffer",
    "Seat",
    "WorkerHeartbeat",
    "new_invite_token",
]
