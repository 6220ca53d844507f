"""The leaderboard of a mode: established players, best rating first, a page at a time.

"All time" ranks every player past the provisional matches; "this month"
ranks those of them who played a rated match since the month began (UTC).
Both read the partial index ``rating_leaderboard`` (mode, display desc,
user, where rated_matches >= PROVISIONAL_MATCHES), which also carries
last_rated_at for the month's filter.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.match.models import Match
from games.ratings.models import PROVISIONAL_MATCHES, PlayerRating

PAGE_SIZE = 50
ALL_TIME = "all"
THIS_MONTH = "month"
PERIODS = (ALL_TIME, THIS_MONTH)


@dataclass(frozen=True)
class Row:
    """One line of the board."""

    rank: int
    user_id: int
    username: str
    rating: int
    rated_matches: int


@dataclass(frozen=True)
class OwnRank:
    """Where the viewer stands on a board: their rank and the page that shows it."""

    rank: int
    page: int
    rating: int


def month_start(now: datetime | None = None) -> datetime:
    """The first instant of the current month, UTC."""
    now = (now or timezone.now()).astimezone(UTC)
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def board(mode: str, period: str) -> QuerySet[PlayerRating]:
    """The ratings on ``mode``'s board for ``period``, best first (ties: the older account)."""
    ratings = PlayerRating.objects.filter(mode=mode, rated_matches__gte=PROVISIONAL_MATCHES)
    if period == THIS_MONTH:
        ratings = ratings.filter(last_rated_at__gte=month_start())
    return ratings.order_by("-display", "user_id")


def page_of(mode: str, period: str, number: Any) -> tuple[Page[Any], list[Row]]:
    """Page ``number`` of the board (the last page for a number past it) and its rows.

    The page is read from the index alone, in its order; the names of its
    fifty players come after, by primary key (a join would let PostgreSQL
    sort the whole board instead).
    """
    ratings = board(mode, period).values_list("user_id", "display", "rated_matches")
    page = Paginator(ratings, PAGE_SIZE).get_page(number)
    items = list(page.object_list)
    names = dict(
        get_user_model()
        .objects.filter(pk__in=[user_id for user_id, _d, _m in items])
        .values_list("pk", "username")
    )
    rows = [
        Row(
            rank=page.start_index() + index,
            user_id=user_id,
            username=names[user_id],
            rating=display,
            rated_matches=matches,
        )
        for index, (user_id, display, matches) in enumerate(items)
    ]
    return page, rows


def own_rank(user: Any, mode: str, period: str) -> OwnRank | None:
    """The viewer's place on the board, or None when they are not on it (provisional, say)."""
    if not getattr(user, "is_authenticated", False):
        return None
    mine = board(mode, period).filter(user=user).first()
    if mine is None:
        return None
    # display >= mine bounds the index range; the Q settles ties by user.
    ahead = (
        board(mode, period)
        .filter(display__gte=mine.display)
        .filter(Q(display__gt=mine.display) | Q(display=mine.display, user_id__lt=user.pk))
        .count()
    )
    return OwnRank(rank=ahead + 1, page=ahead // PAGE_SIZE + 1, rating=mine.display)


def mode_or_default(value: object) -> str:
    """A known mode from a query parameter, else Classic."""
    return value if isinstance(value, str) and value in Match.Mode.values else Match.Mode.CLASSIC


def period_or_default(value: object) -> str:
    """A known period from a query parameter, else all time."""
    return value if isinstance(value, str) and value in PERIODS else ALL_TIME
