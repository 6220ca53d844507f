"""A player's public profile: ratings per mode with their history, statistics, recent matches.

Everything comes from the projections (``PlayerRating``, ``RatedSeat``,
``PlayerStats``) and a few recent seats: no event log is read per request.
A private match is listed (its counts are part of the statistics) but only
linked for a viewer who may see it, and never with its invite link.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.match.access import may_see
from games.match.models import Match, Seat
from games.ratings import formula, leaderboard
from games.ratings.models import PROVISIONAL_MATCHES, PlayerRating, PlayerStats, RatedSeat
from games.ratings.rating_chart import RatingChart, rating_chart

HISTORY_POINTS = 100
RECENT_MATCHES = 10


@dataclass(frozen=True)
class ModeRating:
    """A player's rating in one mode, as the profile shows it."""

    mode: str
    name: str
    rating: int
    rated_matches: int
    provisional: bool
    rank: int | None


@dataclass(frozen=True)
class StatLine:
    """One statistic, per mode and in total."""

    label: str
    values: list[str]


@dataclass(frozen=True)
class RecentMatch:
    """One of the player's latest matches."""

    match: Match
    won: bool | None
    linked: bool


@dataclass(frozen=True)
class Profile:
    """Everything the profile page shows."""

    ratings: list[ModeRating]
    chart: RatingChart | None
    mode_names: list[str]
    stats: list[StatLine]
    recent: list[RecentMatch]
    played: int


def profile_of(player: Any, viewer: Any) -> Profile:
    """``player``'s profile as ``viewer`` sees it."""
    modes = list(Match.Mode)
    ratings = {r.mode: r for r in PlayerRating.objects.filter(user=player)}
    shown = []
    history: dict[str, list[int]] = {}
    for mode in modes:
        rating = ratings.get(mode.value)
        if rating is None:
            continue
        rank = None
        if not rating.provisional:
            own = leaderboard.own_rank(player, mode.value, leaderboard.ALL_TIME)
            rank = own.rank if own else None
        shown.append(
            ModeRating(
                mode=mode.value,
                name=str(mode.label),
                rating=rating.display,
                rated_matches=rating.rated_matches,
                provisional=rating.provisional,
                rank=rank,
            )
        )
        latest = RatedSeat.objects.filter(user=player, mode=mode.value).order_by("-rated_match_id")
        history[mode.value] = list(
            reversed(latest.values_list("display_after", flat=True)[:HISTORY_POINTS])
        )
    chart = rating_chart(
        history, {mode.value: str(mode.label) for mode in modes}, formula.Skill().shown
    )
    stats = {s.mode: s for s in PlayerStats.objects.filter(user=player)}
    per_mode = [stats.get(mode.value) or PlayerStats(mode=mode.value) for mode in modes]
    total = PlayerStats()
    for row in per_mode:
        for name in PlayerStats.COUNTERS:
            setattr(total, name, getattr(total, name) + getattr(row, name))
    columns = [*per_mode, total]
    return Profile(
        ratings=shown,
        chart=chart,
        mode_names=[str(mode.label) for mode in modes],
        stats=_stat_lines(columns),
        recent=_recent(player, viewer),
        played=total.matches_played,
    )


def _stat_lines(columns: list[PlayerStats]) -> list[StatLine]:
    """The statistics table: one line per figure, one column per mode and the total."""

    def pair(first: str, second: str) -> list[str]:
        return [f"{getattr(c, first)} / {getattr(c, second)}" for c in columns]

    def average(c: PlayerStats) -> str:
        return f"{c.points / c.deals_played:.1f}" if c.deals_played else "—"

    return [
        StatLine(_("Matches played / won"), pair("matches_played", "matches_won")),
        StatLine(_("Sun contracts bought / made"), pair("sun_bought", "sun_made")),
        StatLine(_("Hokum contracts bought / made"), pair("hokum_bought", "hokum_made")),
        StatLine(_("Doubles called / won"), pair("doubles_called", "doubles_won")),
        StatLine(_("Projects declared"), [str(c.projects_declared) for c in columns]),
        StatLine(_("Sawa claims"), [str(c.sawa_claims) for c in columns]),
        StatLine(_("Gahwa called"), [str(c.gahwa_called) for c in columns]),
        StatLine(_("Deals played"), [str(c.deals_played) for c in columns]),
        StatLine(_("Average points per deal"), [average(c) for c in columns]),
    ]


def _recent(player: Any, viewer: Any) -> list[RecentMatch]:
    """The player's latest started matches; finished ones the viewer may see are linked."""
    seats = (
        Seat.objects.filter(user=player, match__imported=False)
        .exclude(match__status=Match.Status.WAITING)
        .select_related("match")
        .prefetch_related("match__seats")
        .order_by("-match__created_at", "-match_id")[:RECENT_MATCHES]
    )
    recent = []
    for seat in seats:
        match = seat.match
        won = None
        if match.status == Match.Status.FINISHED and match.winner:
            won = match.winner == seat.team
        linked = match.status == Match.Status.FINISHED and may_see(match, viewer, match.seats.all())
        recent.append(RecentMatch(match=match, won=won, linked=linked))
    return recent


__all__ = ["PROVISIONAL_MATCHES", "Profile", "profile_of"]
