"""A player's public profile: ratings per mode with their history, statistics, recent matches.

Everything comes from the projections (``PlayerRating``, ``RatedSeat``,
``PlayerStats``) and a few recent seats: no event log is read per request.
A private match shows only to a viewer who may see it
(``games.match.access.seen_by``, without an invite): anyone else finds it
neither in the recent matches nor in the statistics, which count private
tables apart and show them to the player themself and to staff alone, so
that nobody follows a private match deal by deal from its players'
profiles. An invite link never shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.match.access import seen_by
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
    rows = PlayerStats.objects.filter(user=player)
    if not _own_or_staff(player, viewer):
        rows = rows.filter(private=False)
    per_mode = [PlayerStats(mode=mode.value) for mode in modes]
    total = PlayerStats()
    for row in rows:
        column = next(c for c in per_mode if c.mode == row.mode)
        for name in PlayerStats.COUNTERS:
            setattr(column, name, getattr(column, name) + getattr(row, name))
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


def _own_or_staff(player: Any, viewer: Any) -> bool:
    """True when ``viewer`` may see all of ``player``'s statistics, private tables included."""
    return getattr(viewer, "pk", None) == player.pk or getattr(viewer, "is_staff", False)


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
    """The player's latest started matches that the viewer may see; finished ones are linked."""
    seats = (
        Seat.objects.filter(user=player, match__imported=False)
        .filter(match__in=seen_by(Match.objects.all(), viewer))
        .exclude(match__status=Match.Status.WAITING)
        .select_related("match")
        .order_by("-match__created_at", "-match_id")[:RECENT_MATCHES]
    )
    recent = []
    for seat in seats:
        match = seat.match
        won = None
        if match.status == Match.Status.FINISHED and match.winner:
            won = match.winner == seat.team
        linked = match.status == Match.Status.FINISHED
        recent.append(RecentMatch(match=match, won=won, linked=linked))
    return recent


__all__ = ["PROVISIONAL_MATCHES", "Profile", "profile_of"]
