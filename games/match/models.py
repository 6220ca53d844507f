"""Matches stored as an append-only event log.

``Event`` rows are the source of truth: one row per dealt deck and one per
player action, numbered by ``seq`` within a match. Everything else on a match
(status, scores, winner, ``seq``) is a projection that the services keep up
to date and that ``games.match.event_log.rebuild_state`` can rebuild from the events. Only
``games.match.services`` writes events. ``Announcement`` is the outbox of
``games.match.broadcast``: a change not yet told to the connected pages.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

SEAT_NUMBERS = (1, 2, 3, 4)


class BotLevel(models.TextChoices):
    """How well a bot plays (``games.bots.LEVELS``): the level is stored with its seat."""

    EASY = "easy", _("easy")
    NORMAL = "normal", _("normal")
    STRONG = "strong", _("strong")


def team_of_seat(number: int) -> str:
    """Team A holds seats 1 and 3, team B seats 2 and 4 (notation.md)."""
    return "A" if number % 2 else "B"


def new_invite_token() -> str:
    """A fresh unguessable token for a private match's invite link."""
    return secrets.token_urlsafe(16)


class MatchQuerySet(models.QuerySet["Match"]):
    """Queries about who played and who won."""

    def involving(self, user: Any) -> MatchQuerySet:
        """Matches in which ``user`` holds a seat."""
        return self.filter(seats__user=user).distinct()

    def counted(self) -> MatchQuerySet:
        """Finished matches that count in statistics; imported ones never do."""
        return self.filter(status=Match.Status.FINISHED, imported=False)

    def won_by(self, user: Any) -> MatchQuerySet:
        """Matches whose winning team had ``user`` in one of its seats."""
        return self.filter(
            Q(winner="A", seats__user=user, seats__number__in=(1, 3))
            | Q(winner="B", seats__user=user, seats__number__in=(2, 4))
        ).distinct()


class Match(models.Model):
    """One match of Baloot, from its waiting table to its winner."""

    class Mode(models.TextChoices):
        CLASSIC = "classic", _("Classic")
        QUICK = "quick", _("Quick")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")
        # An uploaded document whose deals the worker is still storing
        # (games.match.services.store_import_deals): seen by nobody yet.
        IMPORTING = "importing", _("Being imported")

    class Team(models.TextChoices):
        A = "A", _("Team A")
        B = "B", _("Team B")

    class UnratedReason(models.TextChoices):
        """Why a match was not rated, decided as it started (``games.ratings.policy``)."""

        BOTS = "bots", _("a bot in a seat")
        PRIVATE = "private", _("private table")
        CHOSEN_SEATS = "chosen_seats", _("seats chosen by the players")
        SAME_FOUR = "same_four", _("the same four played a rated match shortly before")
        DAILY_LIMIT = "daily_limit", _("two of the players met in enough rated matches today")

    PLAY_TIMER_CHOICES = [
        (10, _("10 seconds")),
        (15, _("15 seconds")),
        (30, _("30 seconds")),
    ]

    mode = models.CharField(_("mode"), max_length=8, choices=Mode, default=Mode.CLASSIC)
    status = models.CharField(
        _("status"), max_length=10, choices=Status, default=Status.WAITING, db_index=True
    )
    play_timer = models.PositiveSmallIntegerField(
        _("play timer (seconds)"), choices=PLAY_TIMER_CHOICES, default=15
    )
    is_private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(
        _("invite token"), max_length=32, unique=True, default=new_invite_token, editable=False
    )
    # When the invite token was issued: it is good for INVITE_MAX_AGE_SECONDS
    # from then. None when the creator turned the invite link off.
    invite_issued_at = models.DateTimeField(
        _("invite link issued"), null=True, blank=True, default=timezone.now
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("creator"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_matches",
    )
    imported = models.BooleanField(_("imported"), default=False)
    # An imported match keeps its document's "players" and unknown top-level
    # keys here, so that exporting it gives the same document back.
    notation_header = models.JSONField(_("notation header"), default=dict, blank=True)
    # Never rated, whatever its seats: a quick match its player filled with
    # bots to start at once (games.social.queue), the rematches of one, and
    # every match the rating policy turned down as it started
    # (games.ratings.policy), with the reason why.
    unrated = models.BooleanField(_("unrated"), default=False)
    unrated_reason = models.CharField(
        _("why unrated"), max_length=16, choices=UnratedReason, blank=True
    )
    # The site chose who sits where: a quick match, or a rated table of the
    # lobby, whose seats are drawn when it starts. Only such a table is rated,
    # so nobody picks their partner in rated play.
    seats_assigned = models.BooleanField(_("seats assigned by the site"), default=False)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now, db_index=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # When the seat to act runs out of time (or a bot or an away seat acts),
    # set with every event; None when nobody is to act. Kept in the database
    # so timers survive restarts and any worker process can enforce them.
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)

    # Projections of the event log: the services update them with every event
    # and verification rebuilds them; they are never read back into a rebuild.
    seq = models.PositiveIntegerField(_("last event"), default=0)
    score_a = models.SmallIntegerField(_("score of team A"), default=0)
    score_b = models.SmallIntegerField(_("score of team B"), default=0)
    # None while nobody has won, like the rules engine's State.winner.
    winner = models.CharField(  # noqa: DJ001
        _("winner"), max_length=1, choices=Team, null=True, blank=True
    )
    # The deal on the table: how many deals were dealt so far and the
    # commitment (never the seed) of the last one, so that the table shows
    # it from the match row alone.
    deal_number = models.PositiveIntegerField(_("deals dealt"), default=0)
    deal_commitment = models.CharField(_("commitment of the last deal"), max_length=64, blank=True)
    # Whether the last deal had ended when the match was stopped, so that the
    # worker analyses it; None for a running match, or a stopped one whose log
    # has not been read yet (the worker reads it once).
    last_deal_over = models.BooleanField(_("last deal over when stopped"), null=True, blank=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=Q(first_dealer__isnull=True)
                | Q(first_dealer__gte=1, first_dealer__lte=4),
                name="match_first_dealer_is_a_seat",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Match %(id)s") % {"id": self.pk})

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.pk])

    @property
    def is_over(self) -> bool:
        """True once the match can take no more actions."""
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def rating_label(self) -> str:
        """What the table and the match page say of rating: rated, or unrated and why.

        Empty where there is nothing to say: an imported or stopped match, or
        one started before the rating policy that recorded no decision.
        """
        if self.imported or self.status == self.Status.ABORTED:
            return ""
        reason = ""
        if self.unrated:
            reason = self.get_unrated_reason_display() if self.unrated_reason else ""
        elif self.status == self.Status.WAITING:
            if self.is_private:
                reason = str(self.UnratedReason.PRIVATE.label)
            elif self.seats_assigned:
                return str(_("Rated: the seats are drawn at the start"))
            else:
                reason = str(self.UnratedReason.CHOSEN_SEATS.label)
        elif self.seats_assigned:
            return str(_("Rated"))
        else:
            return ""
        if not reason:
            return str(_("Unrated"))
        return str(_("Unrated: %(reason)s") % {"reason": reason})


class Seat(models.Model):
    """One of the four places at a match's table: empty, a person or a bot."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="seats"
    )
    number = models.PositiveSmallIntegerField(
        _("seat"), choices=[(n, str(n)) for n in SEAT_NUMBERS]
    )
    # PROTECT: a player who sat at a table is part of its history.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    # A seated player who left or missed several turns: a bot plays for them
    # until they come back.
    away = models.BooleanField(_("played by a bot while away"), default=False)
    # How well the bot in this seat plays; also the bot that stands in for an
    # away player.
    bot_level = models.CharField(
        _("bot level"), max_length=8, choices=BotLevel, default=BotLevel.NORMAL
    )
    missed_turns = models.PositiveSmallIntegerField(_("missed turns in a row"), default=0)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="seat_unique_number"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=Q(user__isnull=False),
                name="seat_one_per_player",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=4), name="seat_number_1_to_4"
            ),
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=True), name="seat_bot_has_no_user"
            ),
        ]

    def __str__(self) -> str:
        return str(
            _("Seat %(number)s: %(occupant)s")
            % {
                "number": self.number,
                "occupant": self.occupant_label,
            }
        )

    @property
    def is_empty(self) -> bool:
        """True when nobody, person or bot, sits here."""
        return self.user_id is None and not self.is_bot

    @property
    def team(self) -> str:
        """The seat's team, A or B."""
        return team_of_seat(self.number)

    @property
    def occupant_label(self) -> str:
        """The name shown for this seat."""
        if self.user is not None:
            return self.user.get_username()
        if self.is_bot:
            # A name per seat with its level, the same on the table, in
            # replays, history and the admin.
            return str(
                _("Bot %(number)s (%(level)s)")
                % {"number": self.number, "level": self.get_bot_level_display()}
            )
        return str(_("empty"))


class Event(models.Model):
    """One entry of a match's log: a dealt deck or a player's action. Never changed."""

    class Kind(models.TextChoices):
        DEAL = "deal", _("Deal")
        ACTION = "action", _("Action")
        # Staff stopped the match: recorded in the log like everything else
        # that changes a match, though the rules engine has nothing to do.
        ABORT = "abort", _("Abort")

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="events"
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind)
    # A notation action (notation.md) or {"deal": {dealer, deck, seed, commitment}};
    # an imported deal keeps its document's own round keys beside dealer and deck.
    payload = models.JSONField(_("payload"))
    # Lets a later format change upgrade old payloads on load.
    payload_version = models.PositiveSmallIntegerField(_("payload version"), default=1)
    actor_seat = models.PositiveSmallIntegerField(_("actor seat"), null=True, blank=True)
    auto = models.BooleanField(_("forced by the timer"), default=False)
    # Chosen by the bot standing in for a person who stepped away (or missed
    # turns until it took over): the leaver rule counts these
    # (games.ratings.recording.leavers). Never set for a bot's own seat.
    stand_in = models.BooleanField(_("played by the stand-in bot"), default=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["match", "seq"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="event_unique_seq"),
        ]

    def __str__(self) -> str:
        return str(
            _("Event %(seq)s of match %(match)s")
            % {
                "seq": self.seq,
                "match": self.match_id,
            }
        )

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert the event; raises ValueError on any attempt to change a stored one."""
        if not self._state.adding:
            raise ValueError("Events are append-only: a stored event is never changed.")
        super().save(*args, **kwargs)


class DealSnapshot(models.Model):
    """The engine state right after a deal event, so loading folds one deal at most.

    A cache of the log, never its source: it can be deleted and rebuilt.
    """

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="snapshots"
    )
    seq = models.PositiveIntegerField(_("after event"))
    state = models.JSONField(_("state"))

    class Meta:
        ordering = ["match", "seq"]
        verbose_name = _("deal snapshot")
        verbose_name_plural = _("deal snapshots")
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="snapshot_unique_seq"),
        ]

    def __str__(self) -> str:
        return str(
            _("Snapshot of match %(match)s at event %(seq)s")
            % {
                "match": self.match_id,
                "seq": self.seq,
            }
        )


class DealAnalysis(models.Model):
    """The double-dummy analysis of one finished deal, written by the worker.

    ``plays`` holds one entry per card played (and per Sawa claim), in order:
    ``step`` (the action's number in the deal, as the replay counts them),
    ``seat``, ``card`` (None for a claim), ``before`` and ``after`` (the card
    points each team ends the deal with under best play from there on, as
    [A, B]), ``best`` (the cards that kept the value, when the one played did
    not) and ``loss`` (what the play cost its own team). Written only once
    the deal is over, and rewritten when ``solver_version`` is not
    ``games.rules.solver.SOLVER_VERSION``; a cache of the log, never its
    source.
    """

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="analyses"
    )
    number = models.PositiveIntegerField(_("deal"))
    solver_version = models.PositiveSmallIntegerField(_("solver version"))
    plays = models.JSONField(_("plays"))
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("deal analysis")
        verbose_name_plural = _("deal analyses")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="analysis_unique_deal"),
        ]

    def __str__(self) -> str:
        return str(
            _("Analysis of deal %(number)s of match %(match)s")
            % {"number": self.number, "match": self.match_id}
        )


class ImportJob(models.Model):
    """An uploaded ``baloot/1`` document that the worker stores, a few deals at a time.

    The upload is judged by the rules engine in the request (cheap: a
    bounded document); storing its deals is the worker's
    (``games.worker.imports``), one short transaction per deal, so an
    import never holds the database for long. The uploader's page follows
    ``deals_stored`` until the job is done (``match`` set) or failed
    (``error`` says why, in the uploader's language).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for the worker")
        RUNNING = "running", _("Importing")
        DONE = "done", _("Imported")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("uploader"),
        on_delete=models.CASCADE,
        related_name="import_jobs",
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status, default=Status.QUEUED, db_index=True
    )
    # The uploaded text, emptied once the job is over.
    document = models.TextField(_("document"), blank=True)
    # The uploader's language when they uploaded: a failure is worded in it.
    language = models.CharField(_("language"), max_length=16, blank=True)
    deals_total = models.PositiveIntegerField(_("deals in the document"), default=0)
    deals_stored = models.PositiveIntegerField(_("deals stored"), default=0)
    match = models.ForeignKey(
        Match,
        verbose_name=_("match"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now, db_index=True)
    # A worker holds the job until then; one that died lets another take over.
    lease_until = models.DateTimeField(_("held by a worker until"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("import")
        verbose_name_plural = _("imports")

    def __str__(self) -> str:
        return str(_("Import %(id)s") % {"id": self.pk})

    def get_absolute_url(self) -> str:
        return reverse("games:import_job", args=[self.pk])

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)


class Announcement(models.Model):
    """An announcement not yet sent: written with its event, deleted once sent.

    Internal bookkeeping, shown nowhere: rows live for milliseconds.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    # The deadline changed without a new event (time given back after an
    # outage): pages must show the fresh countdown even at the same event.
    clock = models.BooleanField(default=False)
    created_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"match {self.match_id} event {self.seq}"
