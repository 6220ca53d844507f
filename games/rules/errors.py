"""Typed rule errors, each with a message a player can read.

Every error carries a stable ``code`` and the ``params`` of its message so
that the web layer can translate it; ``str(error)`` is the English text.
"""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action the rules do not allow at this point."""

    code = "illegal_action"

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.template = message
        self.params = params


class MalformedAction(IllegalAction):
    """An action that is not a well-formed notation action at all."""

    code = "malformed_action"


class WrongPhase(IllegalAction):
    """The action belongs to another phase of the deal."""

    code = "wrong_phase"


class NotYourTurn(IllegalAction):
    """Another seat is to act."""

    code = "not_your_turn"


class InvalidBid(IllegalAction):
    """A bid that is not one of the seat's options (D8-D12)."""

    code = "invalid_bid"


class InvalidRedeal(IllegalAction):
    """A redeal request that D7 does not allow."""

    code = "invalid_redeal"


class InvalidDouble(IllegalAction):
    """A multiplier call that D13-D15 do not allow."""

    code = "invalid_double"


class InvalidDeclaration(IllegalAction):
    """A project declaration that D18-D19 do not allow."""

    code = "invalid_declaration"


class CardNotInHand(IllegalAction):
    """The seat does not hold the card."""

    code = "card_not_in_hand"


class MustFollowSuit(IllegalAction):
    """D3: the seat holds the led suit."""

    code = "must_follow_suit"


class MustTrump(IllegalAction):
    """D3: in Hokum a seat void in the led suit must trump."""

    code = "must_trump"


class LockedLead(IllegalAction):
    """D4: in lock mode a trump may not be led while holding another suit."""

    code = "locked_lead"


class InvalidBaloot(IllegalAction):
    """A Baloot announcement that D21a does not allow."""

    code = "invalid_baloot"


class InvalidSawa(IllegalAction):
    """A Sawa claim that D26 does not allow."""

    code = "invalid_sawa"


class InvalidAuto(IllegalAction):
    """An action marked ``auto`` that is not the forced choice of D17."""

    code = "invalid_auto"


class InvalidDeck(IllegalAction):
    """A deck that is not 32 distinct cards."""

    code = "invalid_deck"
