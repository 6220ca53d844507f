"""A clock the tests move, and reading back a match's deadline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.match.models import Match

# A fixed moment: nothing in these tests depends on the real time of day.
START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    """The time ``django.utils.timezone.now`` reports, moved only by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        """Move the clock on by ``seconds``; returns the new time."""
        self.now += timedelta(seconds=seconds)
        return self.now

    def set(self, moment: datetime) -> datetime:
        """Move the clock to ``moment``; returns it."""
        self.now = moment
        return moment


def reload(match: Match) -> Match:
    """The match as stored now."""
    return Match.objects.get(pk=match.pk)


def deadline_of(match: Match) -> datetime:
    """The match's stored deadline; fails the test when it has none."""
    deadline = reload(match).deadline
    assert deadline is not None, "the match has no deadline"
    return deadline
