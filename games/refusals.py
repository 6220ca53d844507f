"""How a refused request is answered over HTTP: a status code and a message in the user's language.

The services raise ``ServiceError`` subclasses with translatable messages,
except for the rules engine's own refusals, whose text is English: those are
shown through the engine's stable codes instead.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import errors

# The refusals a player can run into at the table, by the engine's code.
ENGINE_MESSAGES: dict[str, Promise] = {
    "must_follow_suit": _("You must follow the suit that was led."),
    "must_trump": _("You cannot follow the suit that was led, so you must play a trump."),
    "locked_lead": _("The game is locked: you may not lead a trump while you hold another suit."),
    "card_not_in_hand": _("You do not hold that card."),
    "invalid_bid": _("That bid is not one of your options now."),
    "invalid_redeal": _(
        "A redeal is only for a first five cards of 7s, 8s and 9s, at your first turn to bid."
    ),
    "invalid_double": _("That call is not one of your options now."),
    "invalid_declaration": _("Your hand does not allow that declaration."),
    "invalid_baloot": _(
        "Baloot is announced with the trump king or queen, by the player who held both."
    ),
    "invalid_sawa": _(
        "Sawa is only for a leader sure to win every remaining trick, whatever the others play."
    ),
}

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
    if isinstance(error, errors.IllegalMove) and error.engine_code in ENGINE_MESSAGES:
        return str(ENGINE_MESSAGES[error.engine_code])
    if isinstance(error, errors.WrongPhase):
        # The engine's wording is English; the generic one is translated.
        return str(errors.WrongPhase.default_message)
    return str(error)
