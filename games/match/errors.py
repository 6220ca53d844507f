"""The errors the services raise, each with a message a player can read.

Every error has a stable ``code`` (for clients and tests) and a translatable
message; ``str(error)`` gives it in the active language.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class ServiceError(Exception):
    """A request the services refuse; nothing was changed."""

    code = "refused"
    default_message: str | Promise = _("This request cannot be carried out.")

    def __init__(self, message: str | Promise | None = None, **params: Any) -> None:
        self.message = message if message is not None else self.default_message
        self.params = params
        super().__init__(self.message)

    def __str__(self) -> str:
        text = str(self.message)
        return text % self.params if self.params else text


class MatchNotFound(ServiceError):
    code = "match_not_found"
    default_message = _("There is no such match.")


class InvalidSeat(ServiceError):
    code = "invalid_seat"
    default_message = _("Seats are numbered from 1 to 4.")


class InvalidSetting(ServiceError):
    code = "invalid_setting"
    default_message = _("This table setting is not available.")


class SeatTaken(ServiceError):
    code = "seat_taken"
    default_message = _("Seat %(number)s is already taken.")


class SeatEmpty(ServiceError):
    code = "seat_empty"
    default_message = _("Nobody sits in seat %(number)s.")


class NotABot(ServiceError):
    code = "not_a_bot"
    default_message = _("There is no bot in seat %(number)s.")


class AlreadySeated(ServiceError):
    code = "already_seated"
    default_message = _("You already sit at this table, in seat %(number)s.")


class InviteRequired(ServiceError):
    code = "invite_required"
    default_message = _("This table is private: you need its invite link to sit down.")


class NotAllowed(ServiceError):
    code = "not_allowed"
    default_message = _("Only the players at this table can do that.")


class NotTheHost(NotAllowed):
    code = "not_host"
    default_message = _("Only the player who opened this table can do that.")


class NotYourSeat(ServiceError):
    code = "not_your_seat"
    default_message = _("You can only act for your own seat.")


class NotYourTurn(ServiceError):
    code = "not_your_turn"
    default_message = _("It is not your turn.")


class StaleSequence(ServiceError):
    code = "stale"
    default_message = _(
        "The table has moved on since you last looked (you saw move %(expected)s, "
        "it is now at move %(current)s). Here is the latest state."
    )


class DuplicateAction(ServiceError):
    code = "duplicate"
    default_message = _("This action has already been recorded.")


class MalformedAction(ServiceError):
    code = "malformed"
    default_message = _("This action is not well formed.")


class IllegalMove(ServiceError):
    """The rules engine refused the action; ``engine_code`` is its stable code."""

    code = "illegal"

    def __init__(self, message: str | Promise, engine_code: str, **params: Any) -> None:
        super().__init__(message)
        self.engine_code = engine_code
        self.engine_params = params


class WrongPhase(ServiceError):
    code = "wrong_phase"
    default_message = _("That cannot be done at this point of the deal.")


class MatchNotWaiting(ServiceError):
    code = "not_waiting"
    default_message = _("This match has already started, so its seats can no longer change.")


class MatchNotRunning(ServiceError):
    code = "not_running"
    default_message = _("This match is not being played.")


class MatchOver(ServiceError):
    code = "match_over"
    default_message = _("This match is already over.")


class TableNotFull(ServiceError):
    code = "table_not_full"
    default_message = _("All four seats must be filled before the match can start.")


class InvalidDocument(ServiceError):
    """A notation document the rules refuse; nothing of it is stored."""

    code = "invalid_document"
    default_message = _("This document cannot be imported.")


class AlreadyPlaying(ServiceError):
    """The player sits at a running match already: one match at a time."""

    code = "already_playing"
    default_message = _(
        "You are already playing match %(match)s. Go back to it: another match can start "
        "once it is over."
    )


class TooManyTables(ServiceError):
    """The player has been seated at too many new tables in a short time."""

    code = "too_many_tables"
    default_message = _(
        "You have started too many tables in a short time. Please wait a while and try again."
    )
