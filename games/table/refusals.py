"""How a refused request is answered over HTTP: a status code and a message in the user's language.

The services raise ``ServiceError`` subclasses with translatable messages;
the rules engine's own refusals reach them already wrapped in a lazy
translation (``games.match.rule_messages``), so every message reads in the active
language.
"""

from __future__ import annotations

from games.match import errors

# Bad input is 400, someone else's business 403, a missing match 404, a
# request that no longer fits the table 409, and a move the rules forbid 422.
STATUS_BY_ERROR: tuple[tuple[type[errors.ServiceError], int], ...] = (
    (errors.MalformedAction, 400),
    (errors.InvalidSeat, 400),
    (errors.InvalidSetting, 400),
    (errors.NotAllowed, 403),
    (errors.NotYourSeat, 403),
    (errors.InviteRequired, 403),
    (errors.MatchNotFound, 404),
    (errors.IllegalMove, 422),
    (errors.NotYourTurn, 422),
    (errors.WrongPhase, 422),
)
CONFLICT = 409


def refusal_status(error: errors.ServiceError) -> int:
    """The HTTP status that answers ``error``."""
    for kind, status in STATUS_BY_ERROR:
        if isinstance(error, kind):
            return status
    return CONFLICT


def refusal_message(error: errors.ServiceError) -> str:
    """What to tell the player, in the active language."""
    return str(error)
