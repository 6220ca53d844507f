"""The match page: what it shows about a match's deals.

A match page shows the score sheet and chart of its finished deals, with a replay link
per deal; a deal still being played is never linked and never drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from games import rules
from games.display.score_sheet import SheetRow, score_sheet
from games.history.deal_proof import CurrentDeal, current_deal
from games.history.score_chart import ScoreChart, score_chart
from games.match.access import invite_expiry, invite_live, is_host
from games.match.event_log import load_state
from games.match.models import Match, Seat, team_of_seat


def team_label(team: str, my_team: str | None) -> str:
    """A team's name for a viewer: "Us" and "Them" when they sit in it, else "Team A" or "B"."""
    if my_team:
        return _("Us") if team == my_team else _("Them")
    return _("Team A") if team == "A" else _("Team B")


def seat_names(match: Match, seats: Iterable[Seat]) -> dict[int, str]:
    """The name shown for each seat: the player, its bot's name, or an imported document's label."""
    if match.imported:
        players = match.notation_header.get("players") or {}
        return {
            n: str(players.get(str(n)) or _("Seat %(number)s") % {"number": n})
            for n in (1, 2, 3, 4)
        }
    names = {seat.number: seat.occupant_label for seat in seats}
    return {n: names.get(n, str(n)) for n in (1, 2, 3, 4)}


def page_url(name: str, args: Iterable[Any], params: Mapping[str, Any]) -> str:
    """``reverse(name, args)`` with ``params`` as its query string."""
    url = reverse(name, args=list(args))
    return f"{url}?{urlencode(params)}" if params else url


@dataclass(frozen=True)
class MatchHistory:
    """What a match page shows about the match's deals."""

    names: dict[int, str]
    team_names: dict[str, list[str]]
    my_team: str | None
    us_label: str
    them_label: str
    sheet: list[SheetRow]
    chart: ScoreChart | None
    current_deal: CurrentDeal | None
    export_url: str
    share_url: str
    # The creator of a private match: they may issue a new link or turn it off.
    share_host: bool = False
    share_until: datetime | None = None


def match_history(match: Match, seats: list[Seat], user: Any) -> MatchHistory:
    """The score sheet, chart and links of ``match`` as ``user`` may see them.

    Only finished deals appear; the deal in progress shows its commitment.
    Raises LogError if the stored log does not replay.
    """
    names = seat_names(match, seats)
    my_team = next(
        (seat.team for seat in seats if seat.user_id is not None and seat.user_id == user.pk),
        None,
    )
    perspective = my_team or "A"
    other = "B" if perspective == "A" else "A"
    state = load_state(match) if match.seq else None
    us_label, them_label = team_label(perspective, my_team), team_label(other, my_team)
    rows = score_sheet(
        [result.explain() for result in state.results] if state is not None else [],
        names,
        perspective,
        {perspective: us_label, other: them_label},
        lambda number: reverse("games:replay", args=[match.pk, number]),
    )
    chart = None
    if rows:
        start = rules.new_match(match.mode).score
        chart = score_chart(
            [(row.us.total, row.them.total) for row in rows],
            (start[perspective], start[other]),
            (us_label, them_label),
            team_label(match.winner, my_team) if match.winner else None,
        )
    share_url = ""
    share_host = match.is_private and is_host(match, user)
    if share_host and invite_live(match):
        share_url = page_url("games:detail", [match.pk], {"invite": match.invite_token})
    return MatchHistory(
        names=names,
        team_names={
            team: [names[n] for n in (1, 2, 3, 4) if team_of_seat(n) == team] for team in "AB"
        },
        my_team=my_team,
        us_label=us_label,
        them_label=them_label,
        sheet=rows,
        chart=chart,
        current_deal=current_deal(match),
        export_url=reverse("games:export", args=[match.pk]) if match.is_over else "",
        share_url=share_url,
        share_host=share_host,
        share_until=invite_expiry(match) if share_host else None,
    )
