"""Ratings written straight into the projection, for leaderboard tests that need many players."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User

from games.ratings import formula
from games.ratings.models import PlayerRating


def rated_player(
    name: str, display: int, matches: int, *, mode: str = "classic", when: datetime | None = None
) -> User:
    """A player whose ``mode`` rating shows ``display`` after ``matches`` rated matches."""
    user = User.objects.create_user(username=name, password="a-long-test-passphrase-42")
    sigma = 2.0
    mu = (display - formula.TARGET) / formula.ALPHA + formula.Z * sigma
    rating = PlayerRating.objects.create(
        user=user, mode=mode, mu=mu, sigma=sigma, display=display, rated_matches=matches
    )
    if when is not None:
        PlayerRating.objects.filter(pk=rating.pk).update(last_rated_at=when)
    return user
