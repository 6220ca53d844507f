"""History pages: my matches, the match page, the replay of a finished deal, notation
export and import.

A private match looks missing to anyone who may not see it
(``games.match.access.may_see``); its invite link leaves the token in the
visitor's session (``games.match.invites``), so no link of these pages
carries it. A deal still being played has no replay: ``games.history.replay`` returns
nothing for it, so every such address is a 404.
"""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django_ratelimit.decorators import ratelimit

from baloot_site.limits import rate
from games import rules
from games.history.analysis import match_analysis, step_analysis, stored_plays
from games.history.match_page import match_history, page_url, seat_names
from games.history.my_matches import PAGE_SIZE, HistoryFilter, history_lines, my_seats
from games.history.notation_export import match_document
from games.history.notation_import import ImportForm, import_upload
from games.history.replay import finished_deal
from games.history.replay_page import replay_step
from games.match.access import may_see
from games.match.event_log import load_state
from games.match.invites import held, takes_invite_link
from games.match.models import ImportJob, Match, Seat
from games.match.rule_messages import rule_message

STEP = re.compile(r"[0-9]{1,5}")
# How often the page of an import in progress reloads itself.
IMPORT_REFRESH_SECONDS = 2


@login_required
@require_GET
def my_matches(request: HttpRequest) -> HttpResponse:
    """Every match the user sat in, newest first, filtered and a page at a time."""
    filters = HistoryFilter(request.GET)
    status, result = filters.selected()
    page = Paginator(my_seats(request.user, status, result), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "games/my_matches.html",
        {
            "filters": filters,
            "filtered": bool(status or result),
            "page": page,
            "lines": history_lines(page.object_list),
        },
    )


@takes_invite_link
@login_required
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A match's teams, score sheet, score chart and deal replays.

    A private match looks missing to outsiders.
    """
    match, seats = _viewable(request, pk)
    history = match_history(match, seats, request.user)
    # history.sheet has a row per finished deal: only those are analysed.
    analysis = match_analysis(
        match, len(history.sheet), history.names, lambda number: _deal_url(pk, number)
    )
    return render(
        request,
        "games/match_detail.html",
        {
            "match": match,
            "team_a": [s for s in seats if s.team == "A"],
            "team_b": [s for s in seats if s.team == "B"],
            "rows": history.sheet,
            "names": history.names,
            "history": history,
            "analysis": analysis,
        },
    )


@takes_invite_link
@login_required
@require_GET
def deal_replay(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Step ``?step=N`` of finished deal ``number``; 404 for a deal in progress or a bad step."""
    match, seats = _viewable(request, pk)
    replay = finished_deal(match, number)
    if replay is None:
        raise Http404
    raw = request.GET.get("step", "0")
    if not STEP.fullmatch(raw) or int(raw) > replay.last_step:
        raise Http404

    def step_url(step: int) -> str:
        return page_url("games:replay", [pk, number], {"step": step})

    finished = len(load_state(match).results)
    names = seat_names(match, seats)
    step = int(raw)
    # The replay's door let only a finished deal through: its analysis may show.
    plays = stored_plays(match, number)
    has_cards = any("play" in action for action in replay.actions)
    return render(
        request,
        "games/replay.html",
        {
            "match": match,
            "r": replay_step(replay, step, names, step_url),
            "a": step_analysis(plays, step, names, step_url) if plays else None,
            "analysis_pending": plays is None and has_cards,
            "match_url": reverse("games:detail", args=[pk]),
            "export_url": reverse("games:export", args=[pk]) if match.is_over else "",
            "prev_deal_url": _deal_url(pk, number - 1) if number > 1 else "",
            "next_deal_url": _deal_url(pk, number + 1) if number < finished else "",
        },
    )


@takes_invite_link
@login_required
@require_GET
def export_notation(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished (or stopped) match as a ``baloot/1`` document to download."""
    match, _seats = _viewable(request, pk)
    if not match.is_over:
        raise Http404
    try:
        text = rules.write_document(match_document(match))
    except rules.MalformedDocument as error:
        # Only a document imported before imports were bounded can be so deep.
        message = _("This match cannot be written as a document: %(problem)s") % {
            "problem": rule_message(error)
        }
        return HttpResponse(message, status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="baloot-match-{match.pk}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
@ratelimit(group="imports", key="user", rate=rate("IMPORTS"), method="POST")
def import_notation(request: HttpRequest) -> HttpResponse:
    """Upload a ``baloot/1`` document; a valid one is queued, and its page follows the import."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        job = import_upload(request.user, form)
        if job is not None:
            return redirect(job.get_absolute_url())
    imported = Match.objects.filter(
        creator_id=request.user.pk, imported=True, status=Match.Status.FINISHED
    )
    running = (ImportJob.Status.QUEUED, ImportJob.Status.RUNNING)
    pending = ImportJob.objects.filter(status__in=running, user__pk=request.user.pk or 0)
    return render(
        request,
        "games/import.html",
        {
            "form": form,
            "imported": imported.order_by("-created_at")[:PAGE_SIZE],
            "pending": pending.order_by("created_at")[:PAGE_SIZE],
        },
    )


@login_required
@require_GET
def import_job(request: HttpRequest, pk: int) -> HttpResponse:
    """An upload being stored by the worker: "importing…", then the match, or why it failed.

    Only its uploader sees it; the page reloads itself every few seconds
    while the worker works (a refresh header, no script).
    """
    job = get_object_or_404(ImportJob, pk=pk, user__pk=request.user.pk)
    if job.status == ImportJob.Status.DONE and job.match is not None:
        match = job.match
        messages.success(
            request,
            _("The match was imported. Anyone you give the share link below can replay it."),
        )
        return redirect(match.get_absolute_url())
    response = render(request, "games/import_job.html", {"job": job})
    if not job.is_over:
        response["Refresh"] = str(IMPORT_REFRESH_SECONDS)
    return response


def _viewable(request: HttpRequest, pk: int) -> tuple[Match, list[Seat]]:
    """The match and its seats, if the user may see them (with the invite their session
    holds); raises Http404."""
    match = get_object_or_404(Match, pk=pk)
    seats = list(Seat.objects.filter(match=match).select_related("user"))
    if not may_see(match, request.user, seats, held(request.session, pk)):
        raise Http404
    return match, seats


def _deal_url(pk: int, number: int) -> str:
    return reverse("games:replay", args=[pk, number])
