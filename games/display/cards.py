"""Cards as people see them: corner rank, suit symbol and a spoken name."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.display import labels
from games.display.fields import Fields

RED_SUITS = frozenset("HD")


@dataclass(frozen=True)
class CardFace(Fields):
    """A card as a person sees it: corner rank, suit symbol and a spoken name."""

    code: str
    rank: str
    suit: str
    symbol: str
    label: str
    red: bool

    def __repr__(self) -> str:
        # Short, as the table's parts are kept by the repr of what they show:
        # every other field follows from the code (and the label's language).
        return f"CardFace({self.code!r}, {self.label!r})"


def card_face(code: str) -> CardFace:
    """The face of a two-character card such as ``"TH"`` (the ten of hearts).

    Named in the active language; each card's face is worked out once per language.
    """
    return face_in(code, get_language())


@lru_cache(maxsize=1024)
def face_in(code: str, language: str | None) -> CardFace:
    """The face of ``code`` named in ``language``, which must be the active language;
    for a caller that has read it already (reading it costs more than the lookup)."""
    rank, suit = code[0], code[1]
    return CardFace(
        code=code,
        rank=labels.RANK_FACES.get(rank, rank),
        suit=suit,
        symbol=labels.SUIT_SYMBOLS[suit],
        label=_("%(rank)s of %(suit)s") % {"rank": labels.RANKS[rank], "suit": labels.SUITS[suit]},
        red=suit in RED_SUITS,
    )
