"""A stored match as a ``baloot/1`` notation document (``notation.md``)."""

from __future__ import annotations

from games import rules
from games.event_log import load_state
from games.models import Event, Match, Seat

# Phases in which a deal is still being played.
LIVE_PHASES = frozenset(
    {rules.Phase.BIDDING, rules.Phase.DOUBLING, rules.Phase.DECLARING, rules.Phase.PLAYING}
)
BOT_LABEL = "bot"


def match_document(match: Match) -> rules.Document:
    """The match's finished deals as a notation document, each with its seed and commitment.

    A deal still in progress is left out: its deck would show every hand.
    Raises LogError if the stored log does not replay.
    """
    rounds: list[rules.RoundRecord] = []
    for event in Event.objects.filter(match=match).order_by("seq"):
        if event.kind == Event.Kind.DEAL:
            deal = event.payload["deal"]
            rounds.append(
                rules.RoundRecord(
                    dealer=deal["dealer"],
                    deck=list(deal["deck"]),
                    actions=[],
                    extra={"seed": deal["seed"], "commitment": deal["commitment"]},
                )
            )
        else:
            rounds[-1].actions.append(dict(event.payload))
    if rounds and load_state(match).phase in LIVE_PHASES:
        rounds.pop()
    return rules.Document(mode=match.mode, players=_players(match), rounds=rounds, extra={})


def _players(match: Match) -> dict[str, str] | None:
    """Seat labels for the document: usernames, "bot" for bots; None for an empty table."""
    players = {}
    for seat in Seat.objects.filter(match=match).select_related("user"):
        if seat.user is not None:
            players[str(seat.number)] = seat.user.get_username()
        elif seat.is_bot:
            players[str(seat.number)] = BOT_LABEL
    return players or None
