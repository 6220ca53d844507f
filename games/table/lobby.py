"""The lobby: play now against bots, open a table, find a seat or a match to watch."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers
from django_ratelimit.decorators import ratelimit

from baloot_site.limits import rate
from games.match import services
from games.match.errors import ServiceError
from games.match.models import Match, Seat
from games.table.forms import NewTableForm, PlayNowForm

TEMPLATE = "games/lobby.html"
# Enough tables to choose from without turning the lobby into a long page.
LIST_LENGTH = 20


def _with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    seats = Seat.objects.select_related("user").order_by("number")
    return matches.prefetch_related(Prefetch("seats", queryset=seats))


def lobby_context(request: HttpRequest) -> dict[str, object]:
    """The lists of the lobby: the user's own tables, open tables, tables to watch."""
    user = request.user
    # Tables the user sits at are listed once, under "Your tables".
    theirs = Match.objects.involving(user).values("pk")
    public = Match.objects.filter(is_private=False).exclude(pk__in=theirs)
    return {
        "mine": _with_seats(
            Match.objects.involving(user).filter(
                status__in=(Match.Status.WAITING, Match.Status.PLAYING)
            )
        )[:LIST_LENGTH],
        "open_tables": _with_seats(public.filter(status=Match.Status.WAITING))[:LIST_LENGTH],
        "running": _with_seats(
            public.filter(status=Match.Status.PLAYING).order_by("-started_at", "-id")
        )[:LIST_LENGTH],
    }


@login_required
@vary_on_headers("HX-Request")
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby page; an htmx request (the page's own polling) gets the lists alone."""
    context = lobby_context(request)
    if request.htmx:  # type: ignore[attr-defined]
        return render(request, f"{TEMPLATE}#tables", context)
    context["form"] = NewTableForm()
    context["play_now_form"] = PlayNowForm()
    return render(request, TEMPLATE, context)


@login_required
@require_POST
@ratelimit(group="bot_matches", key="user", rate=rate("BOT_MATCHES"))
def play_now(request: HttpRequest) -> HttpResponse:
    """One click: a table with three bots of the chosen level that starts at once."""
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unknown bot level: choose easy, normal or strong."))
        return redirect("play:lobby")
    try:
        outcome = services.play_with_bots(request.user, level=form.cleaned_data["level"])
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("play:lobby")
    return redirect("play:table", outcome.match.pk)


@login_required
@require_POST
@ratelimit(group="tables", key="user", rate=rate("TABLES"))
def new_table(request: HttpRequest) -> HttpResponse:
    """Open a table with the chosen settings, the creator in seat 1."""
    form = NewTableForm(request.POST)
    if not form.is_valid():
        context = lobby_context(request)
        context["form"] = form
        context["play_now_form"] = PlayNowForm()
        return render(request, TEMPLATE, context, status=400)
    try:
        match = services.create_match(
            request.user,
            mode=form.cleaned_data["mode"],
            play_timer=form.cleaned_data["play_timer"],
            is_private=form.cleaned_data["is_private"],
            rated=form.cleaned_data["rated"],
        )
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("play:lobby")
    return redirect("play:table", match.pk)
