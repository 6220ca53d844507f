"""Ratings and players' statistics: projections of the match log, never its source.

A ``RatedMatch`` is written once, when a rated match ends, with one
``RatedSeat`` per player: the rating before and after, and whether the
player left (rated as a loss whatever the result). Replaying the rated
matches in order from everyone's starting rating gives the stored ratings
back (``games.ratings.replay``). ``PlayerStats`` counts what a player did,
deal by deal; ``games.ratings.rebuild`` recomputes it from the event log.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.match.models import Match

# Rated matches before a rating stops being provisional; a provisional
# player is not on the leaderboard. Also the condition of the leaderboard's
# partial index, so it is a constant, not a setting.
PROVISIONAL_MATCHES = 10


class PlayerRating(models.Model):
    """One player's current rating in one mode (Weng-Lin / Plackett-Luce mu and sigma)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    mode = models.CharField(_("mode"), max_length=8, choices=Match.Mode)
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    # The number shown everywhere: the ordinal scaled (games.ratings.formula).
    display = models.IntegerField(_("rating"))
    rated_matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_rated_at = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "mode"], name="rating_one_per_mode"),
        ]
        indexes = [
            # The leaderboard: established players of a mode, best first. The
            # month's board filters on last_rated_at, and a page shows
            # rated_matches: both carried in the index, so PostgreSQL answers
            # a page (deep ones too), the count and a rank from the index alone.
            models.Index(
                fields=["mode", "-display", "user"],
                include=["last_rated_at", "rated_matches"],
                condition=Q(rated_matches__gte=PROVISIONAL_MATCHES),
                name="rating_leaderboard",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_mode_display()} · {self.display}"

    @property
    def provisional(self) -> bool:
        """True until the player has played ``PROVISIONAL_MATCHES`` rated matches."""
        return self.rated_matches < PROVISIONAL_MATCHES


class RatedMatch(models.Model):
    """A match that changed ratings, in the order the changes were made (its id)."""

    match = models.OneToOneField(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="rating"
    )
    mode = models.CharField(_("mode"), max_length=8, choices=Match.Mode)
    winner = models.CharField(_("winner"), max_length=1, choices=Match.Team)
    rated_at = models.DateTimeField(_("rated"), default=timezone.now)

    class Meta:
        ordering = ["id"]
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")

    def __str__(self) -> str:
        return str(_("Rating of match %(id)s") % {"id": self.match_id})


class RatedSeat(models.Model):
    """One player's rating change in one rated match."""

    rated_match = models.ForeignKey(
        RatedMatch, verbose_name=_("rated match"), on_delete=models.CASCADE, related_name="seats"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="rated_seats",
    )
    mode = models.CharField(_("mode"), max_length=8, choices=Match.Mode)
    seat = models.PositiveSmallIntegerField(_("seat"))
    # The player's team won the match (the rating counts a leaver's win as a loss).
    won = models.BooleanField(_("won"))
    # Away at the end (stepped away, or handed the seat to the bot by missing
    # turns, and never came back), or the bot and the timer made most of the
    # seat's decisions (games.ratings.recording.leavers).
    left = models.BooleanField(_("left the match"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    display_after = models.IntegerField(_("rating after"))
    rated_at = models.DateTimeField(_("rated"), default=timezone.now)

    class Meta:
        ordering = ["rated_match", "seat"]
        verbose_name = _("rated seat")
        verbose_name_plural = _("rated seats")
        constraints = [
            models.UniqueConstraint(fields=["rated_match", "seat"], name="rated_seat_unique"),
        ]
        indexes = [
            # A profile's rating history, oldest first.
            models.Index(fields=["user", "mode", "rated_match"], name="rated_seat_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.rated_match}"


class PlayerStats(models.Model):
    """What one player did in one mode, counted at each deal's end and each match's end.

    Every non-imported match counts, private and bot tables included; a
    private table's counts are kept apart (``private``), so that a profile
    shows them only to the player and staff, never deal by deal to anyone
    who may not see those matches.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="game_stats",
    )
    mode = models.CharField(_("mode"), max_length=8, choices=Match.Mode)
    private = models.BooleanField(_("at private tables"), default=False)
    matches_played = models.PositiveIntegerField(_("matches played"), default=0)
    matches_won = models.PositiveIntegerField(_("matches won"), default=0)
    deals_played = models.PositiveIntegerField(_("deals played"), default=0)
    # The player's team's game points over those deals.
    points = models.PositiveIntegerField(_("points"), default=0)
    sun_bought = models.PositiveIntegerField(_("Sun contracts bought"), default=0)
    sun_made = models.PositiveIntegerField(_("Sun contracts made"), default=0)
    hokum_bought = models.PositiveIntegerField(_("Hokum contracts bought"), default=0)
    hokum_made = models.PositiveIntegerField(_("Hokum contracts made"), default=0)
    doubles_called = models.PositiveIntegerField(_("doubles called"), default=0)
    doubles_won = models.PositiveIntegerField(_("doubles won"), default=0)
    projects_declared = models.PositiveIntegerField(_("projects declared"), default=0)
    sawa_claims = models.PositiveIntegerField(_("Sawa claims"), default=0)
    gahwa_called = models.PositiveIntegerField(_("Gahwa called"), default=0)

    COUNTERS = (
        "matches_played",
        "matches_won",
        "deals_played",
        "points",
        "sun_bought",
        "sun_made",
        "hokum_bought",
        "hokum_made",
        "doubles_called",
        "doubles_won",
        "projects_declared",
        "sawa_claims",
        "gahwa_called",
    )

    class Meta:
        verbose_name = _("player statistics")
        verbose_name_plural = _("player statistics")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "mode", "private"], name="stats_one_per_mode_and_privacy"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_mode_display()}"

    def counts(self) -> dict[str, int]:
        """The counters by name."""
        return {name: getattr(self, name) for name in self.COUNTERS}
