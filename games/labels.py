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
