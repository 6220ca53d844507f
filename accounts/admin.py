"""The user admin, with the matches each player sat in."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from games.match.models import Seat


class PlayerSeatInline(admin.TabularInline):
    """The seats a player held, one per match, read only."""

    model = Seat
    fk_name = "user"
    verbose_name = _("match played")
    verbose_name_plural = _("matches played")
    fields = ("match_link", "number", "match_status", "match_score", "match_created")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-match__created_at",)

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("match")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

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
