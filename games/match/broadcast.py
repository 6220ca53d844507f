"""Telling connected clients that a match moved on.

Group messages carry only "match M is at event N": each consumer then renders
what its own user may see, so no hidden card ever travels through the
channel layer.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def match_group(match_id: int) -> str:
    """The channel-layer group of everyone watching a match."""
    return f"match-{match_id}"


def event_message(match_id: int, seq: int) -> dict[str, Any]:
    """The group message announcing that a match is now at event ``seq``."""
    return {"type": "match.event", "match": match_id, "seq": seq}


def announce_on_commit(match_id: int, seq: int) -> None:
    """Announce the match's new event once the current transaction commits.

    Sending only after the commit means no client hears of an event that a
    rollback undid. A failure to send is logged, never raised: the event is
    stored, and clients resynchronise on their next message.
    """
    transaction.on_commit(lambda: _send(match_id, seq), robust=True)


def _send(match_id: int, seq: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        logger.warning("no channel layer: match %s event %s not announced", match_id, seq)
        return
    async_to_sync(layer.group_send)(match_group(match_id), event_message(match_id, seq))
