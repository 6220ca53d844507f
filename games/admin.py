"""Staff pages for matches: read-only logs, verification and aborting.

Matches change only through ``games.match.services``, so every page here is read
only; events in particular can never be added, edited or deleted. The user
admin is Django's with the matches each player sat in: it is registered here,
since the accounts app knows nothing of matches.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.match import services
from games.match.errors import ServiceError
from games.match.event_log import first_inconsistency, load_state
from games.match.models import Event, ImportJob, Match, Seat


class ReadOnlyInline(admin.TabularInline):
    """An inline that shows rows and never adds, changes or deletes them."""

    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("number", "user", "is_bot", "bot_level", "away", "missed_turns")
    readonly_fields = fields


class MatchFilter(admin.SimpleListFilter):
    """The events of one match (``?match=<id>``, as the match page links to them).

    Only the chosen match is offered: a list of every match would be as long
    as the list of events it is meant to shorten.
    """

    title = _("match")
    parameter_name = "match"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        value = self.value()
        if value and value.isdigit():
            return [(value, str(_("Match %(id)s") % {"id": value}))]
        return []

    def queryset(self, request: HttpRequest, queryset: QuerySet[Event]) -> QuerySet[Event]:
        value = self.value()
        if value is None:
            return queryset
        if not value.isdigit():
            return queryset.none()
        return queryset.filter(match_id=int(value))


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Every match's log, a page at a time: a long match no longer renders as one page."""

    list_display = (
        "seq",
        "match",
        "kind",
        "actor_seat",
        "auto",
        "stand_in",
        "created_at",
        "shown_payload",
    )
    list_display_links = None
    list_filter = (MatchFilter, "kind")
    list_per_page = 100
    list_max_show_all = 100
    ordering = ("match", "seq")
    show_full_result_count = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Event]:
        return super().get_queryset(request).select_related("match")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("payload"))
    def shown_payload(self, event: Event) -> str:
        """The payload as JSON, without the deck and seed of a deal still being played."""
        payload = event.payload
        if event.kind == Event.Kind.DEAL and _deal_in_progress(event):
            deal = payload["deal"]
            payload = {"deal": {"dealer": deal["dealer"], "commitment": deal["commitment"]}}
        elif isinstance(payload.get("declare"), list) and _before_first_trick_ends(event):
            # Declared projects are named at once, but their cards are shown
            # to the table only once the first trick is over: staff too.
            payload = {
                **payload,
                "declare": [
                    {k: v for k, v in project.items() if k != "cards"}
                    if isinstance(project, dict)
                    else project
                    for project in payload["declare"]
                ],
            }
        return json.dumps(payload, ensure_ascii=False)


def _before_first_trick_ends(event: Event) -> bool:
    """True while the deal of ``event`` is being played and its first trick is not complete."""
    if event.match.status != Match.Status.PLAYING:
        return False
    events = Event.objects.filter(match_id=event.match_id)
    if events.filter(kind=Event.Kind.DEAL, seq__gt=event.seq).exists():
        return False
    deal = events.filter(kind=Event.Kind.DEAL, seq__lt=event.seq).order_by("-seq").first()
    this_deal = events.filter(seq__gt=deal.seq if deal else 0).only("payload")
    return sum(1 for later in this_deal if "play" in later.payload) < 4


def _deal_in_progress(event: Event) -> bool:
    """True for the deal event of a running match's current deal, whose cards are secret."""
    return (
        event.match.status == Match.Status.PLAYING
        and not Event.objects.filter(
            match_id=event.match_id, kind=Event.Kind.DEAL, seq__gt=event.seq
        ).exists()
    )


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "__str__",
        "mode",
        "status",
        "players",
        "score_a",
        "score_b",
        "winner",
        "imported",
        "created_at",
    )
    list_filter = ("status", "mode", "created_at", "is_private", "imported")
    search_fields = ("=id", "seats__user__username")
    date_hierarchy = "created_at"
    readonly_fields = (
        "history_links",
        "mode",
        "status",
        "play_timer",
        "is_private",
        "seats_assigned",
        "unrated",
        "unrated_reason",
        "creator",
        "imported",
        "first_dealer",
        "created_at",
        "started_at",
        "finished_at",
        "seq",
        "score_a",
        "score_b",
        "winner",
    )
    fields = readonly_fields
    # The events are a paginated list of their own (EventAdmin), linked from
    # "history": a long match's log would make this page tens of thousands
    # of pixels tall.
    inlines = (SeatInline,)
    actions = ("verify", "abort")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return super().get_queryset(request).prefetch_related("seats__user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_abort_permission(self, request: HttpRequest) -> bool:
        """Aborting is a change, so it needs the change permission on matches."""
        return request.user.has_perm("games.change_match")

    @admin.display(description=_("players"))
    def players(self, match: Match) -> str:
        return ", ".join(seat.occupant_label for seat in match.seats.all())

    @admin.display(description=_("history"))
    def history_links(self, match: Match) -> SafeString:
        """Links to the match's events, its page, the replay of its first finished deal and
        its notation."""
        events = f"{reverse('admin:games_event_changelist')}?match={match.pk}"
        links = [
            (events, _("Events (%(count)s)") % {"count": match.seq}),
            (reverse("games:detail", args=[match.pk]), _("Match page and score sheet")),
        ]
        if match.seq and load_state(match).results:
            links.append((reverse("games:replay", args=[match.pk, 1]), _("Replay, from deal 1")))
        if match.is_over:
            links.append((reverse("games:export", args=[match.pk]), _("Download the notation")))
        return format_html_join(" · ", '<a href="{}">{}</a>', links)

    @admin.action(description=_("Verify the selected matches (replay their logs)"))
    def verify(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        clean = 0
        for match in queryset.order_by("pk"):
            problem = first_inconsistency(match)
            if problem is None:
                clean += 1
            else:
                self.message_user(
                    request,
                    _("%(match)s is inconsistent. %(problem)s")
                    % {"match": match, "problem": problem},
                    messages.ERROR,
                )
        if clean:
            self.message_user(
                request,
                ngettext(
                    "%(count)d match replays consistently.",
                    "%(count)d matches replay consistently.",
                    clean,
                )
                % {"count": clean},
                messages.SUCCESS,
            )

    @admin.action(description=_("Abort the selected matches"), permissions=["abort"])
    def abort(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        aborted = 0
        for match in queryset.order_by("pk"):
            try:
                services.abort_match(match)
            except ServiceError as error:
                self.message_user(
                    request,
                    _("%(match)s: %(error)s") % {"match": match, "error": error},
                    messages.WARNING,
                )
            else:
                aborted += 1
        if aborted:
            self.message_user(
                request,
                ngettext("%(count)d match aborted.", "%(count)d matches aborted.", aborted)
                % {"count": aborted},
                messages.SUCCESS,
            )


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Uploads and how far the worker got with them; read only, the document not shown."""

    list_display = (
        "__str__",
        "user",
        "status",
        "deals_stored",
        "deals_total",
        "match",
        "created_at",
        "finished_at",
    )
    list_filter = ("status",)
    fields = (
        "user",
        "status",
        "deals_stored",
        "deals_total",
        "match",
        "error",
        "created_at",
        "finished_at",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PlayerSeatInline(ReadOnlyInline):
    """The seats a player held, one per match, on their user page."""

    model = Seat
    fk_name = "user"
    verbose_name = _("match played")
    verbose_name_plural = _("matches played")
    fields = ("match_link", "number", "match_status", "match_score", "match_created")
    readonly_fields = fields
    ordering = ("-match__created_at",)

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("match")

    @admin.display(description=_("match"))
    def match_link(self, seat: Seat) -> SafeString:
        url = reverse("admin:games_match_change", args=[seat.match_id])
        return format_html('<a href="{}">{}</a>', url, seat.match)

    @admin.display(description=_("status"))
    def match_status(self, seat: Seat) -> str:
        return seat.match.get_status_display()

    @admin.display(description=_("score (A-B)"))
    def match_score(self, seat: Seat) -> str:
        return f"{seat.match.score_a}-{seat.match.score_b}"

    @admin.display(description=_("created"))
    def match_created(self, seat: Seat) -> Any:
        return seat.match.created_at


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Django's user admin plus the player's matches."""

    inlines = (PlayerSeatInline,)


# The chat's staff pages (reports, messages, bans) live beside the chat.
import games.social.admin  # noqa: E402, F401
