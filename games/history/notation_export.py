"""A stored match as a ``baloot/1`` notation document (``notation.md``).

Keys come out in one canonical order whatever order the database keeps JSON
objects in (PostgreSQL's ``jsonb`` sorts them its own way), so a match always
exports to the same bytes, and exporting an imported export gives it back
byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import rules
from games.match.event_log import load_state
from games.match.models import Event, Match, Seat

# Phases in which a deal is still being played.
LIVE_PHASES = frozenset(
    {rules.Phase.BIDDING, rules.Phase.DOUBLING, rules.Phase.DECLARING, rules.Phase.PLAYING}
)
BOT_LABEL = "bot"
# notation.md's own order: the seat, the verb with its companion, then auto and at.
ACTION_KEYS = (
    "seat",
    "bid",
    "trump",
    "redeal",
    "double",
    "lock",
    "declare",
    "play",
    "baloot",
    "sawa",
    "auto",
    "at",
)
ROUND_KEYS = ("dealer", "deck")


def match_document(match: Match) -> rules.Document:
    """The match's finished deals as a notation document, each with its seed and commitment.

    A deal still in progress is left out: its deck would show every hand. An
    imported match gives back its document's players and its own top-level
    and round keys. Raises LogError if the stored log does not replay, and
    rules.MalformedDocument for a document stored before imports were
    bounded whose unknown keys nest too deep to be written (``MAX_NESTING``).
    """
    if match.imported:
        rules.check_nesting(match.notation_header)
    rounds: list[rules.RoundRecord] = []
    for event in Event.objects.filter(match=match).order_by("seq"):
        if event.kind == Event.Kind.DEAL:
            deal = event.payload["deal"]
            rules.check_nesting(deal)
            rounds.append(
                rules.RoundRecord(
                    dealer=deal["dealer"],
                    deck=list(deal["deck"]),
                    actions=[],
                    extra=sorted_json({k: v for k, v in deal.items() if k not in ROUND_KEYS}),
                )
            )
        elif event.kind == Event.Kind.ACTION:
            rounds[-1].actions.append(canonical_action(event.payload))
    if rounds and load_state(match).phase in LIVE_PHASES:
        rounds.pop()
    if match.imported:
        header = match.notation_header
        players = header.get("players")
        return rules.Document(
            mode=match.mode,
            players=sorted_json(players) if players is not None else None,
            rounds=rounds,
            extra=sorted_json(header.get("extra", {})),
        )
    return rules.Document(mode=match.mode, players=_players(match), rounds=rounds, extra={})


def canonical_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """``action`` with its keys in notation order and each project as project, then cards."""
    known = [key for key in ACTION_KEYS if key in action]
    out = {key: action[key] for key in known + sorted(set(action) - set(known))}
    if isinstance(out.get("declare"), list):
        out["declare"] = [
            {"project": p["project"], "cards": p["cards"]} if _is_project(p) else p
            for p in out["declare"]
        ]
    return out


def sorted_json(value: Any) -> Any:
    """``value`` with the keys of every object in it sorted."""
    if isinstance(value, dict):
        return {key: sorted_json(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_json(item) for item in value]
    return value


def _is_project(item: Any) -> bool:
    return isinstance(item, dict) and set(item) == {"project", "cards"}


def _players(match: Match) -> dict[str, str] | None:
    """Seat labels for the document: usernames, "bot" for bots; None for an empty table."""
    players = {}
    for seat in Seat.objects.filter(match=match).select_related("user").order_by("number"):
        if seat.user is not None:
            players[str(seat.number)] = seat.user.get_username()
        elif seat.is_bot:
            players[str(seat.number)] = BOT_LABEL
    return players or None
