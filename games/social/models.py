"""What people do around the games: waiting for a quick match, chatting, asking for a rematch.

None of this is a match event: the quick-match queue, the chat and rematch
offers live in their own tables, beside the match's event log and never in
it (so the notation export and replays never carry a chat line).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.match.models import Match

# The longest chat message, in characters.
CHAT_MAX_LENGTH = 200


class QueueEntry(models.Model):
    """One player waiting for a quick match of one mode and play timer."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        MATCHED = "matched", _("Matched")
        # Every page of the player closed (or its server died).
        LEFT = "left", _("Left the queue")
        CANCELLED = "cancelled", _("Cancelled")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="queue_entries",
    )
    mode = models.CharField(_("mode"), max_length=8, choices=Match.Mode)
    play_timer = models.PositiveSmallIntegerField(
        _("play timer (seconds)"), choices=Match.PLAY_TIMER_CHOICES
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.WAITING)
    # First come, first served: the order of the queue.
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)
    left_at = models.DateTimeField(_("left"), null=True, blank=True)
    match = models.ForeignKey(
        Match,
        verbose_name=_("match"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="queue_entries",
    )

    class Meta:
        ordering = ["joined_at", "id"]
        verbose_name = _("quick-match queue entry")
        verbose_name_plural = _("quick-match queue entries")
        constraints = [
            # Nobody waits twice: a second "Find a game" changes nothing.
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="waiting"), name="queue_one_wait_per_player"
            ),
        ]
        indexes = [
            models.Index(
                fields=["mode", "play_timer", "joined_at"],
                condition=Q(status="waiting"),
                name="queue_waiting_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_mode_display()} · {self.play_timer} s"


class QueueSocket(models.Model):
    """One open quick-match page of a player: closing the last one leaves the queue."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    channel_name = models.CharField(_("channel"), max_length=200, unique=True)
    # Refreshed while the socket is open; a server that died leaves a row
    # whose time stops, and a stale row counts for nothing.
    seen_at = models.DateTimeField(_("last seen"), default=timezone.now)

    class Meta:
        verbose_name = _("quick-match page")
        verbose_name_plural = _("quick-match pages")

    def __str__(self) -> str:
        return f"{self.user} · {self.channel_name}"


class ChatMessage(models.Model):
    """One line of a table's chat: typed text or a quick phrase, for players or spectators."""

    class Room(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="chat_messages"
    )
    room = models.CharField(_("room"), max_length=10, choices=Room)
    # PROTECT: a reported message keeps its author.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        on_delete=models.PROTECT,
        related_name="chat_messages",
    )
    # Typed text, stored as typed: escaping is the templates' job.
    text = models.CharField(_("text"), max_length=CHAT_MAX_LENGTH, blank=True)
    # A quick phrase's key (games.social.phrases), shown in each reader's language.
    phrase = models.CharField(_("quick phrase"), max_length=24, blank=True)
    created_at = models.DateTimeField(_("sent"), default=timezone.now, db_index=True)
    hidden = models.BooleanField(_("hidden by staff"), default=False)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [models.Index(fields=["match", "room", "id"], name="chat_room_order")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(text="") | ~Q(phrase=""), name="chat_text_or_phrase"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.author}: {self.text or self.phrase}"


class ChatMute(models.Model):
    """A player whose chat lines one viewer no longer wants to see, at any table."""

    viewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("viewer"),
        on_delete=models.CASCADE,
        related_name="chat_mutes",
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("muted player"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    created_at = models.DateTimeField(_("muted"), default=timezone.now)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        constraints = [
            models.UniqueConstraint(fields=["viewer", "muted"], name="chat_mute_once"),
        ]

    def __str__(self) -> str:
        return f"{self.viewer} \u2192 {self.muted}"


class ChatReport(models.Model):
    """A chat message reported to staff, with the lines around it as they were then."""

    message = models.ForeignKey(
        ChatMessage, verbose_name=_("message"), on_delete=models.CASCADE, related_name="reports"
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported by"),
        on_delete=models.CASCADE,
        related_name="chat_reports",
    )
    created_at = models.DateTimeField(_("reported"), default=timezone.now, db_index=True)
    # The room's earlier lines and the match's state when the report was made.
    context = models.JSONField(_("context"), default=dict)
    resolved = models.BooleanField(_("resolved"), default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]

    def __str__(self) -> str:
        return str(_("Report of message %(id)s") % {"id": self.message_id})


class ChatBan(models.Model):
    """A player staff barred from chatting until a given time."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="chat_bans",
    )
    until = models.DateTimeField(_("until"), db_index=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("banned"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("banned by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-until"]
        verbose_name = _("chat ban")
        verbose_name_plural = _("chat bans")

    def __str__(self) -> str:
        return f"{self.user} \u2192 {self.until:%Y-%m-%d %H:%M}"


class RematchOffer(models.Model):
    """An offer to play a finished match's four seats again; lapses after a minute."""

    match = models.ForeignKey(
        Match,
        verbose_name=_("finished match"),
        on_delete=models.CASCADE,
        related_name="rematch_offers",
    )
    created_at = models.DateTimeField(_("offered"), default=timezone.now)
    expires_at = models.DateTimeField(_("lapses"))
    accepted = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("accepted by"), related_name="+", blank=True
    )
    new_match = models.OneToOneField(
        Match,
        verbose_name=_("new match"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_of",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("rematch offer")
        verbose_name_plural = _("rematch offers")

    def __str__(self) -> str:
        return str(_("Rematch of match %(id)s") % {"id": self.match_id})
