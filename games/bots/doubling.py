"""How the bot answers the multiplier calls (D13-D16): rarely, and only when strong.

A defender doubles a Hokum only with the trump J and two more trumps in a
hand strong enough to beat the bidders, and locks the game (D15) so the
bidders cannot draw its trumps. The bidders' Triple and Gahwa, and the
defenders' Four, need still stronger hands.
"""

from __future__ import annotations

from typing import Any

from .choice import only
from .hand import JACK, hokum_strength, of_suit, rank, sun_strength, trump_count

View = dict[str, Any]

SUN_DOUBLE = 11.0
HOKUM_DOUBLE = 9.0
HOKUM_DOUBLE_TRUMPS = 3
HOKUM_TRIPLE = 14.0
HOKUM_FOUR = 14.0
HOKUM_FOUR_TRUMPS = 4
GAHWA = 17.0


def call(view: View) -> dict[str, Any]:
    """The bot's call: Pass unless its hand clearly wins the deal."""
    legal = view["legal"]
    hand = view["hand"]
    contract = view["contract"]
    offered = next(a["double"] for a in legal if a["double"] != "pass")
    if contract["type"] != "hokum":
        if sun_strength(hand) >= SUN_DOUBLE:
            return only(legal, double="double")
        return only(legal, double="pass")
    trump = contract["trump"]
    strength = hokum_strength(hand, trump)
    trumps = trump_count(hand, trump)
    has_jack = any(rank(c) == JACK for c in of_suit(hand, trump))
    if offered == "double":
        if has_jack and trumps >= HOKUM_DOUBLE_TRUMPS and strength >= HOKUM_DOUBLE:
            return only(legal, double="double", lock=True)
    elif offered == "triple":
        if strength >= HOKUM_TRIPLE:
            return only(legal, double="triple", lock=False)
    elif offered == "four":
        if has_jack and trumps >= HOKUM_FOUR_TRUMPS and strength >= HOKUM_FOUR:
            return only(legal, double="four", lock=True)
    elif strength >= GAHWA:
        return only(legal, double="gahwa")
    return only(legal, double="pass")
