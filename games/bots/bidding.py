"""How the bot bids (D7-D12): by the strength of its five cards and the face-up card.

A seat that takes the contract also takes the face-up card, so every Sun or
Hokum is judged on the five cards plus the face-up card. An Ashkal gives the
face-up card to the partner instead, so the bot calls it only with a Sun hand
of its own and a face-up card worth nothing.
"""

from __future__ import annotations

from typing import Any

from games.rules.cards import SUITS

from .choice import only, pick
from .hand import hokum_strength, points, suit, sun_strength, trump_count

View = dict[str, Any]

# Thresholds on the weights of ``hand``, set by self-play so that the bot's
# Hokums are made about five times in six and its Suns (riskier: every suit is
# plain) about two times in three. A Hokum needs about J + 9 of trump, or the
# J with length and a side ace; a Sun three aces, or two with a ten beside one.
HOKUM_BID = 7.0
HOKUM_MIN_TRUMPS = 2
SUN_BID = 9.0
# Taking a contract away from the other team's Hokum or Ashkal needs more.
SUN_OVER_OPPONENT = 10.5
# The Hokum bidder, unanswered, switches to Sun only with a clearly better Sun.
SUN_SWITCH = 11.5


def partner_of(seat: int) -> int:
    """The seat across the table."""
    return (seat + 1) % 4 + 1


def bid(view: View, boldness: float = 0.0) -> dict[str, Any]:
    """The bot's bid, reply to a Hokum or an Ashkal, Hokum choice, or redeal request;
    ``boldness`` lowers the strength a Hokum or a Sun needs (a bot that plays
    its cards better makes thinner contracts)."""
    legal = view["legal"]
    redeal = pick(legal, redeal=True)
    if redeal is not None:
        # D7: the hand is five 7s, 8s and 9s; a fresh deal can only be better.
        return redeal
    bids = {action.get("bid") for action in legal}
    if "confirm" in bids:
        return _hokum_choice(view)
    hand = view["hand"]
    faceup = view["faceup"]
    sun = sun_strength([*hand, faceup])
    if "hokum" not in bids:
        return _reply(view, sun + boldness)
    if sun + boldness >= SUN_BID:
        if "ashkal" in bids and points(faceup, None) == 0 and sun_strength(hand) >= SUN_BID:
            return only(legal, bid="ashkal")
        return only(legal, bid="sun")
    trump, strength = best_hokum(view)
    if strength + boldness >= HOKUM_BID and trump_count([*hand, faceup], trump) >= HOKUM_MIN_TRUMPS:
        return only(legal, bid="hokum")
    return only(legal, bid="pass")


def _reply(view: View, sun: float) -> dict[str, Any]:
    """Answering a Hokum (D10) or an Ashkal (D11): Sun over the other team, else pass."""
    legal = view["legal"]
    caller = next(b["seat"] for b in reversed(view["bids"]) if b["bid"] in ("hokum", "ashkal"))
    if caller != partner_of(view["seat"]) and sun >= SUN_OVER_OPPONENT:
        return only(legal, bid="sun")
    return only(legal, bid="pass")


def _hokum_choice(view: View) -> dict[str, Any]:
    """D10: everyone passed the bot's Hokum: confirm it in its best suit, or switch to Sun."""
    legal = view["legal"]
    cards = [*view["hand"], view["faceup"]]
    if sun_strength(cards) >= SUN_SWITCH:
        return only(legal, bid="sun")
    confirms = [a for a in legal if a.get("bid") == "confirm"]
    if len(confirms) == 1:
        return confirms[0]
    return max(confirms, key=lambda a: hokum_strength(cards, a["trump"]))


def best_hokum(view: View) -> tuple[str, float]:
    """The trump the bot would name and its strength: the face-up suit in round one (D10)."""
    cards = [*view["hand"], view["faceup"]]
    faceup_suit = suit(view["faceup"])
    if view["bid_round"] == 1:
        return faceup_suit, hokum_strength(cards, faceup_suit)
    options = [s for s in SUITS if s != faceup_suit]
    best = max(options, key=lambda s: hokum_strength(cards, s))
    return best, hokum_strength(cards, best)
