"""Telling connected clients, and the worker, that a match changed.

Group messages carry only "match M is at event N" and a revision token that
tells one change from another at the same event number (a seat taken before
the start, a player stepping away): each consumer then renders what its own
user may see, so no hidden card ever travels through the channel layer.

Within the process that made the change, listeners (``listen``) hear of it
first, with the outcome itself when the service has one: the table's hub
keeps it so that the pushes need not read the match again
(``games.table.live``), and the worker's alarm learns the match's new
deadline (``games.worker.alarm``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Announcement:
    """One committed change of a match, as heard inside the process that made it.

    ``outcome`` is the service's ``Outcome`` (match, state and seats as
    committed) when it has one; ``deadline`` is the match's deadline after
    the change.
    """

    match_id: int
    seq: int
    revision: str
    deadline: datetime | None
    outcome: Any = None


Listener = Callable[[Announcement], None]
_listeners: list[Listener] = []


def listen(listener: Listener) -> None:
    """Call ``listener`` with every announcement this process makes, before it is sent."""
    if listener not in _listeners:
        _listeners.append(listener)


def match_group(match_id: int) -> str:
    """The channel-layer group of everyone watching a match."""
    return f"match-{match_id}"


def event_message(match_id: int, seq: int, revision: str = "") -> dict[str, Any]:
    """The group message announcing that a match is now at event ``seq``."""
    return {"type": "match.event", "match": match_id, "seq": seq, "rev": revision}


def announce_on_commit(
    match_id: int, seq: int, *, deadline: datetime | None = None, outcome: Any = None
) -> None:
    """Announce the match's change once the current transaction commits.

    Sending only after the commit means no client hears of an event that a
    rollback undid. A failure to send is logged, never raised: the change is
    stored, and clients resynchronise on their next message.
    """
    announcement = Announcement(match_id, seq, secrets.token_hex(6), deadline, outcome)
    transaction.on_commit(lambda: _send(announcement), robust=True)


def _send(announcement: Announcement) -> None:
    for listener in _listeners:
        try:
            listener(announcement)
        except Exception:
            logger.exception("match %s: a listener failed", announcement.match_id)
    layer = get_channel_layer()
    if layer is None:
        logger.warning(
            "no channel layer: match %s event %s not announced",
            announcement.match_id,
            announcement.seq,
        )
        return
    message = event_message(announcement.match_id, announcement.seq, announcement.revision)
    async_to_sync(layer.group_send)(match_group(announcement.match_id), message)
