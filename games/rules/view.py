"""What one seat, or a spectator, may see: the only door out of the engine.

Everything the site sends to a browser is built from ``view_for``. It holds
the seat's own hand and public facts only: the face-up card while bidding,
bids and calls, declared project types (their cards once the first trick is
over, D18), played cards, Baloot announcements, scores and finished deals.
Another seat's unplayed cards never appear, with the single exception the
rules demand: the hand of a seat that asked for a zero-point redeal (D7),
and, once a deal has ended by Sawa, the cards the claimer still held (D26:
the claim is shown, as players lay their cards down at a real table).
"""

from __future__ import annotations

from typing import Any, cast

from .cards import CARD_STR, cards_of, sort_hand, strength, suit_of
from .engine import legal_actions
from .projects import Project
from .shapes import (
    Action,
    BidView,
    ContractView,
    History,
    HistoryPlay,
    OwnView,
    ShownHand,
    ShownProject,
    TrickView,
    View,
)
from .state import TEAMS, Phase, State, Trick, team_index

_LIVE = (Phase.BIDDING, Phase.DOUBLING, Phase.DECLARING, Phase.PLAYING)
# What a view holds for its own seat alone: every other key is public, the
# same in every view of one state.
OWN = ("seat", "team", "hand", "timed_out", "legal")


def view_for(
    state: State, seat: int | None, *, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The JSON-safe picture of ``state`` for ``seat`` (1-4) or a spectator (None).

    ``public``, the spectator's view of the same ``state``, gives what every
    view shows alike instead of working it out again (the views share its
    values, which nobody changes). Raises ValueError for a seat outside 1-4,
    or a ``public`` view that is a seat's.

    A ``View`` (``shapes.py``), typed as a plain dict for the site's callers.
    """
    if seat is not None and seat not in (1, 2, 3, 4):
        raise ValueError(f"seat must be 1-4 or None, not {seat!r}")
    own = _own(state, seat)
    if public is not None:
        if public["seat"] is not None:
            raise ValueError("a seat's view is not the public view")
        seen = dict(public)
        seen.update(own)
        return seen
    phase = state.phase
    live = phase in _LIVE
    dealt = phase is not Phase.DEALING
    contract = state.contract
    trump = contract.trump if contract else -1
    revealed = len(state.tricks) >= 1 or not live
    results = [r.explain() for r in state.results]
    view: View = {
        "seat": own["seat"],
        "team": own["team"],
        "mode": state.mode,
        "phase": phase.value,
        "dealer": state.dealer or None,
        "next_dealer": state.next_dealer,
        "turn": state.turn,
        "bid_round": state.bid_round if dealt else None,
        "score": state.score,
        "winner": state.winner,
        "hand": own["hand"],
        "hand_counts": {str(s): state.hands[s - 1].bit_count() for s in range(1, 5)},
        "faceup": CARD_STR[state.faceup] if phase is Phase.BIDDING else None,
        "bids": _public_bids(state),
        "contract": _contract(state) if contract else None,
        "calls": [{"seat": s, "call": c} for s, c in state.calls],
        "declarations": {
            str(s): _declaration(state.declared[s - 1], revealed) for s in range(1, 5)
        },
        "counting_team": TEAMS[state.counting] if revealed and state.counting >= 0 else None,
        "trick": [{"seat": s, "card": CARD_STR[c]} for s, c in state.trick],
        "leader": state.leader or None,
        "winning": _winning(state.trick, trump) if state.trick else None,
        "last_trick": _trick(state.tricks[-1]) if state.tricks else None,
        "tricks_won": {
            t: sum(1 for trick in state.tricks if team_index(trick.winner) == i)
            for i, t in enumerate(TEAMS)
        },
        "card_points": {"A": state.points[0], "B": state.points[1]},
        "baloot": [s for s in range(1, 5) if state.baloot_done >> s & 1],
        "results": results,
        "last_result": results[-1] if results and not live and dealt else None,
        "redeal": _redeal(state) if state.outcome == "redeal" and not live else None,
        "sawa": _sawa(state) if state.outcome == "sawa" and not live else None,
        "timed_out": own["timed_out"],
        "legal": own["legal"],
    }
    return cast("dict[str, Any]", view)


def _own(state: State, seat: int | None) -> OwnView:
    """The keys of ``OWN``: what the view of ``seat`` holds for that seat alone."""
    phase = state.phase
    live = phase in _LIVE
    dealt = phase is not Phase.DEALING
    contract = state.contract
    trump = contract.trump if contract else -1
    return {
        "seat": seat,
        "team": TEAMS[team_index(seat)] if seat else None,
        "hand": _hand(state, seat, trump) if seat and dealt else [],
        "timed_out": _timed_out(state, seat) if seat and live else None,
        "legal": legal_actions(state) if seat is not None and seat == state.turn else [],
    }


def _hand(state: State, seat: int, trump: int) -> list[str]:
    return [CARD_STR[c] for c in sort_hand(state.hands[seat - 1], trump)]


def _public_bids(state: State) -> list[BidView]:
    bids = [a for a in state.deal_actions if "bid" in a or "redeal" in a]
    # D12: a second round only follows four passes, so its bids start at the fifth.
    second = state.bid_round == 2
    return [_public_bid(a, 2 if second and i >= 4 else 1) for i, a in enumerate(bids)]


def _public_bid(action: Action, bid_round: int) -> BidView:
    out: BidView = {
        "seat": action["seat"],
        "auto": bool(action.get("auto")),
        "round": bid_round,
        "bid": "redeal" if "redeal" in action else action["bid"],
    }
    if "trump" in action:
        out["trump"] = action["trump"]
    return out


def _contract(state: State) -> ContractView:
    contract = state.contract
    assert contract is not None
    return {
        **contract.to_json(),
        "multiplier": state.multiplier,
        "lock": state.lock,
        "gahwa": state.gahwa,
    }


def _declaration(projects: tuple[Project, ...] | None, revealed: bool) -> list[ShownProject] | None:
    if projects is None:
        return None
    if revealed:
        return [
            {"project": kind, "cards": [CARD_STR[c] for c in cards]} for kind, cards in projects
        ]
    return [{"project": kind, "cards": None} for kind, _ in projects]


def _trick(trick: Trick) -> TrickView:
    return {
        "leader": trick.leader,
        "cards": [{"seat": s, "card": CARD_STR[c]} for s, c in trick.plays],
        "winner": trick.winner,
    }


def _redeal(state: State) -> ShownHand:
    seat = state.redeal_seat
    return {"seat": seat, "cards": [CARD_STR[c] for c in cards_of(state.dealt[seat - 1])]}


def _winning(trick: tuple[tuple[int, int], ...], trump: int) -> int:
    """The seat whose card wins ``trick`` so far (D2): the highest trump, else of the led suit."""
    led = suit_of(trick[0][1])
    best_seat, best = trick[0][0], (False, -1)
    for seat, card in trick:
        suit = suit_of(card)
        if suit != trump and suit != led:
            continue
        power = (suit == trump, strength(card, trump))
        if power > best:
            best_seat, best = seat, power
    return best_seat


def _sawa(state: State) -> ShownHand:
    """The claimer of the Sawa that ended the deal and the cards they still held."""
    seat = next(a["seat"] for a in reversed(state.deal_actions) if a.get("sawa"))
    return {"seat": seat, "cards": [CARD_STR[c] for c in sort_hand(state.hands[seat - 1])]}


def _timed_out(state: State, seat: int) -> dict[str, Any] | None:
    """The seat's latest action of the deal, if the timer chose it (D17), without its seat."""
    for action in reversed(state.deal_actions):
        if action["seat"] == seat:
            if not action.get("auto"):
                return None
            return {k: v for k, v in action.items() if k not in ("seat", "auto")}
    return None


def public_history(state: State) -> dict[str, Any]:
    """What every seat and spectator has seen of the current deal beyond
    ``view_for``: the face-up card (shown to all while bidding) and every card
    played so far, in order, with its Baloot announcement. Bots keep their
    card memory from this; it never holds an unplayed card of any seat but
    the face-up card, which everyone saw. A ``History`` (``shapes.py``),
    typed as a plain dict for the site's callers."""
    if state.phase is Phase.DEALING:
        history: History = {"faceup": None, "plays": []}
        return cast("dict[str, Any]", history)
    plays: list[HistoryPlay] = [
        {"seat": a["seat"], "card": a["play"], "baloot": bool(a.get("baloot"))}
        for a in state.deal_actions
        if "play" in a
    ]
    history = {
        "faceup": CARD_STR[state.faceup] if state.faceup >= 0 else None,
        "plays": plays,
    }
    return cast("dict[str, Any]", history)
