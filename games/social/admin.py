"""Staff pages for the chat: reports to review, messages to hide, bans from chatting.

The match admin lives in ``games.admin``, which imports this module so that
Django's admin finds these pages too.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.social import chat
from games.social.models import ChatBan, ChatMessage, ChatReport

# How long the admin's ban actions keep a player out of the chat.
BAN_HOURS = {"day": 24, "week": 24 * 7}


def _hide(modeladmin: admin.ModelAdmin, request: HttpRequest, lines: list[ChatMessage]) -> None:
    for line in lines:
        chat.hide(line)
    modeladmin.message_user(
        request,
        _("Messages hidden: %(count)d.") % {"count": len(lines)},
        messages.SUCCESS,
    )


def _ban(modeladmin: admin.ModelAdmin, request: HttpRequest, authors: set[Any], hours: int) -> None:
    for author in authors:
        chat.ban(author, hours, by=request.user, reason=str(_("Banned from the chat admin")))
    modeladmin.message_user(
        request,
        _("Players banned from the chat: %(count)d.") % {"count": len(authors)},
        messages.SUCCESS,
    )


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "match", "room", "author", "shown_text", "hidden")
    list_filter = ("room", "hidden")
    search_fields = ("author__username", "text")
    list_select_related = ("author", "match")
    readonly_fields = ("match", "room", "author", "text", "phrase", "created_at", "hidden")
    actions = ["hide_messages", "ban_authors_day", "ban_authors_week"]
    list_per_page = 50

    @admin.display(description=_("text"))
    def shown_text(self, line: ChatMessage) -> str:
        return line.text or f"[{line.phrase}]"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Hide the selected messages"))
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        _hide(self, request, list(queryset))

    @admin.action(description=_("Ban their authors from the chat for a day"))
    def ban_authors_day(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        _ban(self, request, {line.author for line in queryset}, BAN_HOURS["day"])

    @admin.action(description=_("Ban their authors from the chat for a week"))
    def ban_authors_week(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        _ban(self, request, {line.author for line in queryset}, BAN_HOURS["week"])


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "reporter", "author", "reported_text", "hidden", "resolved")
    list_filter = ("resolved", "message__hidden")
    list_select_related = ("reporter", "message", "message__author")
    readonly_fields = ("message", "reporter", "created_at", "shown_context")
    fields = ("message", "reporter", "created_at", "shown_context", "resolved")
    actions = ["hide_reported", "ban_reported_day", "ban_reported_week", "mark_resolved"]
    list_per_page = 50

    @admin.display(description=_("author"))
    def author(self, report: ChatReport) -> str:
        return report.message.author.get_username()

    @admin.display(description=_("message"))
    def reported_text(self, report: ChatReport) -> str:
        return report.message.text or f"[{report.message.phrase}]"

    @admin.display(description=_("hidden"), boolean=True)
    def hidden(self, report: ChatReport) -> bool:
        return report.message.hidden

    @admin.display(description=_("context"))
    def shown_context(self, report: ChatReport) -> str:
        return json.dumps(report.context, ensure_ascii=False, indent=2)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Hide the reported messages"))
    def hide_reported(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        _hide(self, request, [report.message for report in queryset])
        queryset.update(resolved=True)

    @admin.action(description=_("Ban their authors from the chat for a day"))
    def ban_reported_day(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        _ban(self, request, {report.message.author for report in queryset}, BAN_HOURS["day"])
        queryset.update(resolved=True)

    @admin.action(description=_("Ban their authors from the chat for a week"))
    def ban_reported_week(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        _ban(self, request, {report.message.author for report in queryset}, BAN_HOURS["week"])
        queryset.update(resolved=True)

    @admin.action(description=_("Mark as resolved"))
    def mark_resolved(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        queryset.update(resolved=True)


@admin.register(ChatBan)
class ChatBanAdmin(admin.ModelAdmin):
    list_display = ("user", "until", "reason", "created_by", "created_at")
    search_fields = ("user__username",)
    list_select_related = ("user", "created_by")
    autocomplete_fields = ("user",)
    readonly_fields = ("created_by", "created_at")
    list_per_page = 50

    def save_model(self, request: HttpRequest, obj: ChatBan, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)
