"""Display names of the game's terms, all translatable.

The engine speaks notation (``"hokum"``, ``"H"``, ``"all_passed"``); pages
show these names instead.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CONTRACTS: dict[str, Promise] = {
    "sun": _("Sun"),
    "hokum": _("Hokum"),
    "ashkal": _("Ashkal"),
}

OUTCOMES: dict[str, Promise] = {
    "played": _("Played"),
    "sawa": _("Sawa"),
    "all_passed": _("All passed"),
    "redeal": _("Redeal"),
}

SUITS: dict[str, Promise] = {
    "S": _("Spades"),
    "H": _("Hearts"),
    "D": _("Diamonds"),
    "C": _("Clubs"),
}

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

MULTIPLIERS: dict[int, Promise] = {
    2: _("Double"),
    3: _("Triple"),
    4: _("Four"),
}

GAHWA = _("Gahwa")

RANKS: dict[str, Promise] = {
    "A": _("Ace"),
    "K": _("King"),
    "Q": _("Queen"),
    "J": _("Jack"),
    "T": _("Ten"),
    "9": _("Nine"),
    "8": _("Eight"),
    "7": _("Seven"),
}

# What a card's corner shows: the ten is written 10, as on printed cards.
RANK_FACES = {"T": "10"}

BIDS: dict[str, Promise] = {
    "pass": _("Pass"),
    "sun": _("Sun"),
    "hokum": _("Hokum"),
    "ashkal": _("Ashkal"),
    "confirm": _("Confirm Hokum"),
    "redeal": _("Redeal"),
}

SECOND_HOKUM = _("Second Hokum")

CALLS: dict[str, Promise] = {
    "pass": _("Pass"),
    "double": _("Double"),
    "triple": _("Triple"),
    "four": _("Four"),
    "gahwa": _("Gahwa"),
}

PROJECTS: dict[str, Promise] = {
    "sira": _("Sira"),
    "fifty": _("Fifty"),
    "hundred": _("Hundred"),
    "four_hundred": _("Four Hundred"),
}

PHASES: dict[str, Promise] = {
    "dealing": _("Dealing"),
    "bidding": _("Bidding"),
    "doubling": _("Doubling"),
    "declaring": _("Projects"),
    "playing": _("Playing"),
    "round_over": _("Deal over"),
    "match_over": _("Match over"),
}
