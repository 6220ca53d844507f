"""The chat's quick phrases: one tap sends one, each reader sees it in their own language.

A quick phrase is stored as its key, never as text, so a player reading
Arabic sees «السلام عليكم» where one reading English sees the English
greeting. The Arabic catalog uses the words Saudi players type at the table.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

# In the order the buttons show them.
PHRASES: dict[str, Promise] = {
    "salam": pgettext_lazy("quick chat phrase", "Peace be upon you"),
    "salam-reply": pgettext_lazy("quick chat phrase", "And upon you peace"),
    "good-luck": pgettext_lazy("quick chat phrase", "Good luck"),
    "well-played": pgettext_lazy("quick chat phrase", "Well played"),
    "hurry": pgettext_lazy("quick chat phrase", "Hurry up, please"),
    "thanks": pgettext_lazy("quick chat phrase", "Thank you"),
    "sorry": pgettext_lazy("quick chat phrase", "Sorry, partner"),
    "good-game": pgettext_lazy("quick chat phrase", "Good game"),
}


def phrase_text(key: str) -> str:
    """The phrase ``key`` in the active language; empty for an unknown key."""
    phrase = PHRASES.get(key)
    return str(phrase) if phrase is not None else ""
