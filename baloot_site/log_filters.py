"""Filters for the site's log: what is not a fault is not logged as one, and no invite
token is written down."""

from __future__ import annotations

import asyncio
import logging
import re

# An invite token in an address: ``invite=<token>`` in a query string, or the
# same percent-encoded inside another parameter (a login's ``next``).
INVITE_IN_ADDRESS = re.compile(r"(invite(?:=|%3D))[^&\s\"'#%]*", re.IGNORECASE)
HIDDEN = "[hidden]"


def hide_invites(text: str) -> str:
    """``text`` with the value of every invite parameter in it replaced by ``[hidden]``."""
    if "invite" not in text.lower():
        return text
    return INVITE_IN_ADDRESS.sub(rf"\g<1>{HIDDEN}", text)


class CancelledCleanUp(logging.Filter):
    """Drops channels_redis's traceback for a socket cancelled while it unsubscribes.

    When a server stops, daphne cancels the sockets still closing; the
    pub/sub layer then logs "Unexpected exception while cleaning-up channel"
    with the CancelledError, though a cancelled clean-up is what a stop is.
    Every other record of that logger goes through.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, asyncio.CancelledError)


class HiddenInvites(logging.Filter):
    """Hides invite tokens in what is logged (a request line, a "Not Found" address).

    An invite link's token reaches the server once, in the address of the
    request that puts it in the session (``games.match.invites``); an access
    log or an error line quoting that address would keep it. The record's
    message is written out here with the tokens hidden.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = hide_invites(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True
