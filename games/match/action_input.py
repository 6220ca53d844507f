"""The shape of an action sent by a client, checked before the rules engine sees it.

Clients send notation actions (``notation.md``) as JSON. This module only
checks their structure: an object, known keys, the right types, one verb.
Whether the values make sense at this point of the game is the engine's
call. ``auto`` and ``at`` are the server's to set, so a client may not send
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.match.errors import MalformedAction

VERBS = ("bid", "redeal", "double", "declare", "play", "sawa")
# Each key a client may send, with the JSON type its value must have.
FIELD_TYPES: Mapping[str, type] = {
    "seat": int,
    "bid": str,
    "trump": str,
    "redeal": bool,
    "double": str,
    "lock": bool,
    "declare": list,
    "play": str,
    "baloot": bool,
    "sawa": bool,
}
SERVER_FIELDS = ("auto", "at")
# A hand holds 8 cards, so no declaration can need more entries than that.
MAX_PROJECTS = 8
MAX_PROJECT_CARDS = 8


def clean_action(raw: object) -> dict[str, Any]:
    """A copy of ``raw`` if it is a well-formed client action; raises MalformedAction."""
    if not isinstance(raw, Mapping):
        raise MalformedAction(_("An action must be a JSON object."))
    action: dict[str, Any] = {}
    for key, value in raw.items():
        if key in SERVER_FIELDS:
            raise MalformedAction(_("The field “%(key)s” is set by the server.") % {"key": key})
        expected = FIELD_TYPES.get(key) if isinstance(key, str) else None
        if expected is None:
            raise MalformedAction(_("Unknown field “%(key)s”.") % {"key": key})
        # bool is an int in Python, but true is not a seat number.
        if type(value) is not expected:
            raise MalformedAction(_("The field “%(key)s” has the wrong type.") % {"key": key})
        action[key] = value
    verbs = [key for key in action if key in VERBS]
    if len(verbs) != 1:
        raise MalformedAction(
            _("An action needs exactly one of: %(verbs)s.") % {"verbs": ", ".join(VERBS)}
        )
    if "declare" in action:
        action["declare"] = _clean_declaration(action["declare"])
    return action


def _clean_declaration(projects: list[Any]) -> list[dict[str, Any]]:
    """A copy of a declaration's project list; raises MalformedAction."""
    if len(projects) > MAX_PROJECTS:
        raise MalformedAction(_("A declaration lists too many projects."))
    cleaned = []
    for project in projects:
        if not isinstance(project, Mapping) or set(project) != {"project", "cards"}:
            raise MalformedAction(_("A project needs exactly “project” and “cards”."))
        name, cards = project["project"], project["cards"]
        if type(name) is not str or type(cards) is not list:
            raise MalformedAction(_("A project names its kind and lists its cards."))
        if len(cards) > MAX_PROJECT_CARDS or not all(type(card) is str for card in cards):
            raise MalformedAction(_("A project's cards must be a short list of card names."))
        cleaned.append({"project": name, "cards": list(cards)})
    return cleaned
