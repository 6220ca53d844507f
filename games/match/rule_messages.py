"""The rules engine's refusals in the player's language.

The engine (``games.rules``) stays free of Django and speaks English: each
``IllegalAction`` (and each ``MalformedDocument`` or ``NotationError`` of an
imported document) carries its English message template (``.template``, with
``%(name)s`` placeholders) and the values for them (``.params``). This module
lists every template the engine can raise, marked with ``gettext_noop`` so
that ``makemessages`` puts them in the catalogs, and translates a refusal as
``gettext(template) % params``, with the params that name a suit, a card, a
project or a call translated too, and a param that is itself a refusal
translated the same way. ``tests/i18n/test_rule_messages.py`` fails
when the engine gains a message that is missing here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop

from games.display import labels

TEMPLATES: frozenset[str] = frozenset(
    {
        # actions.py: the shape of an action (MalformedAction).
        gettext_noop("An action must be an object"),
        gettext_noop("An action needs a seat from 1 to 4"),
        gettext_noop("An action needs exactly one verb"),
        gettext_noop("Unknown key %(key)s in an action"),
        gettext_noop("auto must be true or false"),
        gettext_noop("at must be a time stamp"),
        gettext_noop("Unknown bid %(value)s"),
        gettext_noop("trump goes with confirm and names a suit S, H, D or C"),
        gettext_noop("%(verb)s must be true"),
        gettext_noop("Unknown call %(value)s"),
        gettext_noop("lock goes with double, triple or four and is true or false"),
        gettext_noop("Unknown card %(value)s"),
        gettext_noop("baloot must be true or false"),
        gettext_noop("declare takes a list of projects"),
        gettext_noop("A project is an object with project and cards"),
        gettext_noop("Unknown project %(value)s"),
        gettext_noop("A project's cards must be a list of cards"),
        # engine.py: decks, phases and turns.
        gettext_noop("A deck is a list of 32 cards"),
        gettext_noop("Unknown card %(card)s in the deck"),
        gettext_noop("A deck holds each of the 32 cards once"),
        gettext_noop("A new deal starts only when the previous one is over"),
        gettext_noop("Nobody is to act"),
        gettext_noop("The match is over"),
        gettext_noop("The deal is over"),
        gettext_noop("This is the bidding"),
        gettext_noop("This is the time to double or pass"),
        gettext_noop("This is the time to declare projects"),
        gettext_noop("The cards are being played"),
        gettext_noop("It is not your turn"),
        gettext_noop("A timed-out decision must be the forced choice"),
        # bidding.py (D7-D12).
        gettext_noop("A redeal may only be asked at your first turn of the first bidding round"),
        gettext_noop("Only a hand of five 7s, 8s and 9s may ask for a redeal"),
        gettext_noop("Only the Hokum bidder confirms, once everyone has answered"),
        gettext_noop("Answer an Ashkal with Sun or Pass"),
        gettext_noop("Only the dealer or the player on the dealer's left may call Ashkal"),
        gettext_noop("A Hokum cannot be answered with another Hokum"),
        gettext_noop("A trump suit is chosen only when confirming a Second Hokum"),
        gettext_noop("Everyone passed: choose Sun or confirm your Hokum"),
        gettext_noop("In the first round the trump is the face-up card's suit"),
        gettext_noop("Choose the trump suit for your Second Hokum"),
        gettext_noop("A Second Hokum cannot be in the face-up card's suit"),
        # doubling.py (D13-D16).
        gettext_noop("The call now is %(expected)s or Pass"),
        gettext_noop("Only Hokum calls are open or locked"),
        gettext_noop("Choose open or locked"),
        # declaring.py and projects.py (D18-D20).
        gettext_noop("A project needs its cards"),
        gettext_noop("You do not hold %(card)s"),
        gettext_noop("A card may serve one project only"),
        gettext_noop("Runs of one suit may not touch: declare a longer run as one project"),
        gettext_noop("A project type may be declared at most twice"),
        gettext_noop("Four aces are a Four Hundred in Sun"),
        gettext_noop("Four aces are a Hundred in Hokum"),
        gettext_noop("Four 9s, 8s or 7s are not a project"),
        gettext_noop("A Four Hundred is four aces in Sun"),
        gettext_noop("A %(kind)s is %(size)s cards in a row of one suit"),
        # playing.py (D3, D4, D21a, D26).
        gettext_noop(
            "Baloot is announced once, with the trump King or Queen, "
            "by the player who held both outside a declared project"
        ),
        gettext_noop("The game is locked: you may not lead a trump while you hold another suit"),
        gettext_noop("You must follow %(suit)s"),
        gettext_noop("You cannot follow %(suit)s, so you must trump with %(trump)s"),
        gettext_noop("Sawa is claimed at your turn to lead"),
        gettext_noop("Sawa needs a hand that wins every remaining trick whatever the others play"),
        # notation.py: reading a document (MalformedDocument). The JSON keys
        # and values quoted in these stay as the notation spells them.
        gettext_noop("not valid JSON: %(error)s"),
        gettext_noop("a document is a JSON object"),
        gettext_noop('"notation" must be "%(notation)s"'),
        gettext_noop('"mode" must be "classic" or "quick"'),
        gettext_noop('"players" maps seats "1" to "4" to names'),
        gettext_noop('"rounds" must be a list'),
        gettext_noop("round %(round)s: a round is a JSON object"),
        gettext_noop("round %(round)s: the dealer must be a seat from 1 to 4"),
        gettext_noop("round %(round)s: %(problem)s"),
        gettext_noop("round %(round)s: the actions must be a list"),
        gettext_noop("round %(round)s, action %(action)s: %(problem)s"),
        gettext_noop("lists and objects nest more than %(limit)s levels deep"),
        # notation.py: replaying a whole document (NotationError).
        gettext_noop("The match was already won"),
        gettext_noop("The dealer of this round must be seat %(seat)s"),
        gettext_noop("The deal is not finished"),
    }
)


class EngineMessage(Protocol):
    """What the engine's translatable errors have: ``IllegalAction`` and the notation's."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...


# The engine names suits in lower case (``cards.SUIT_NAMES``), projects in
# title case ("Four Hundred") and calls in title case ("Triple").
_SUIT_LETTERS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
_PROJECT_KEYS = {
    "Sira": "sira",
    "Fifty": "fifty",
    "Hundred": "hundred",
    "Four Hundred": "four_hundred",
}


def _suit(value: Any) -> Any:
    letter = _SUIT_LETTERS.get(str(value))
    return str(labels.SUITS[letter]) if letter else value


def _card(value: Any) -> Any:
    code = str(value)
    if len(code) != 2 or code[0] not in labels.RANKS or code[1] not in labels.SUITS:
        return value
    return gettext("%(rank)s of %(suit)s") % {
        "rank": labels.RANKS[code[0]],
        "suit": labels.SUITS[code[1]],
    }


def _project(value: Any) -> Any:
    key = _PROJECT_KEYS.get(str(value))
    return str(labels.PROJECTS[key]) if key else value


def _call(value: Any) -> Any:
    label = labels.CALLS.get(str(value).lower())
    return str(label) if label is not None else value


# Params that carry a game term, by name; the others (numbers, and the
# notation's own words quoted back in malformed actions) stay as they are.
_PARAM_TRANSLATORS: dict[str, Callable[[Any], Any]] = {
    "suit": _suit,
    "trump": _suit,
    "card": _card,
    "kind": _project,
    "expected": _call,
}


def rule_message(error: EngineMessage) -> str:
    """The engine's refusal ``error`` in the active language."""
    text = gettext(error.template)
    if not error.params:
        return text
    params = {name: _translate_param(name, value) for name, value in error.params.items()}
    return text % params


def _translate_param(name: str, value: Any) -> Any:
    if hasattr(value, "template") and hasattr(value, "params"):
        # The refusal that made a document malformed, inside its message.
        return rule_message(value)
    return _PARAM_TRANSLATORS.get(name, _identity)(value)


def _identity(value: Any) -> Any:
    return value


# For messages built now but shown later (a service error's text is read in
# whatever language is active when it is rendered).
lazy_rule_message = lazy(rule_message, str)
