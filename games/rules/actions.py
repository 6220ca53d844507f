"""The shape of a notation action, checked without looking at the game.

``notation.md``: an action has ``seat`` and exactly one verb; ``trump`` goes
with ``bid``, ``lock`` with ``double``, ``baloot`` with ``play``; ``auto`` and
``at`` may go with any. Anything else is malformed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import CARD_OF, SUITS
from .errors import MalformedAction
from .projects import KINDS

VERBS = ("bid", "redeal", "double", "declare", "play", "sawa")
BIDS = ("pass", "sun", "hokum", "ashkal", "confirm")
CALLS = ("double", "triple", "four", "gahwa", "pass")
_COMPANIONS = {"bid": "trump", "double": "lock", "play": "baloot"}


def check_shape(action: Any) -> str:
    """Returns the action's verb; raises MalformedAction saying what is wrong."""
    if type(action) is dict and len(action) == 2:
        # The common plain shapes, accepted at once; anything else takes the
        # full check below, which alone words the refusals.
        seat = action.get("seat")
        if type(seat) is int and 1 <= seat <= 4:
            value = action.get("play")
            if type(value) is str and value in CARD_OF:
                return "play"
            value = action.get("bid")
            if type(value) is str and value in BIDS:
                return "bid"
            value = action.get("double")
            if type(value) is str and value in CALLS:
                return "double"
    if not isinstance(action, Mapping):
        raise MalformedAction("An action must be an object")
    seat = action.get("seat")
    if type(seat) is not int or not 1 <= seat <= 4:
        raise MalformedAction("An action needs a seat from 1 to 4")
    verbs = [key for key in action if key in VERBS]
    if len(verbs) != 1:
        raise MalformedAction("An action needs exactly one verb")
    verb = str(verbs[0])
    companion = _COMPANIONS.get(verb)
    for key in action:
        if key not in ("seat", "auto", "at", verb) and key != companion:
            raise MalformedAction("Unknown key %(key)s in an action", key=repr(key))
    if "auto" in action and type(action["auto"]) is not bool:
        raise MalformedAction("auto must be true or false")
    if "at" in action and not isinstance(action["at"], str):
        raise MalformedAction("at must be a time stamp")
    value = action[verb]
    if verb == "bid":
        if value not in BIDS:
            raise MalformedAction("Unknown bid %(value)s", value=repr(value))
        if "trump" in action and (value != "confirm" or action["trump"] not in SUITS):
            raise MalformedAction("trump goes with confirm and names a suit S, H, D or C")
    elif verb in ("redeal", "sawa"):
        if value is not True:
            raise MalformedAction("%(verb)s must be true", verb=verb)
    elif verb == "double":
        if value not in CALLS:
            raise MalformedAction("Unknown call %(value)s", value=repr(value))
        if "lock" in action and (
            value not in ("double", "triple", "four") or type(action["lock"]) is not bool
        ):
            raise MalformedAction("lock goes with double, triple or four and is true or false")
    elif verb == "play":
        if not isinstance(value, str) or value not in CARD_OF:
            raise MalformedAction("Unknown card %(value)s", value=repr(value))
        if "baloot" in action and type(action["baloot"]) is not bool:
            raise MalformedAction("baloot must be true or false")
    else:
        _check_declaration_shape(value)
    return verb


def _check_declaration_shape(value: Any) -> None:
    if not isinstance(value, list):
        raise MalformedAction("declare takes a list of projects")
    for item in value:
        if not isinstance(item, Mapping) or set(item) != {"project", "cards"}:
            raise MalformedAction("A project is an object with project and cards")
        if item["project"] not in KINDS:
            raise MalformedAction("Unknown project %(value)s", value=repr(item["project"]))
        cards = item["cards"]
        if not isinstance(cards, list) or not all(
            isinstance(c, str) and c in CARD_OF for c in cards
        ):
            raise MalformedAction("A project's cards must be a list of cards")


def strip(action: Mapping[str, Any]) -> dict[str, Any]:
    """The action without the keys that never change its meaning (auto, at)."""
    return {k: v for k, v in action.items() if k not in ("auto", "at")}
