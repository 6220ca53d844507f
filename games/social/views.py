"""Pages and answers of quick match, table chat and rematch."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_ratelimit.decorators import ratelimit

from baloot_site.limits import rate
from games.match import access
from games.match.errors import MatchNotFound, ServiceError
from games.match.invites import held
from games.match.models import Match, Seat
from games.social import chat, queue, rematch
from games.social.consumers import status_context
from games.social.context import chat_context, rematch_context
from games.social.forms import ChatSettingForm, FindGameForm
from games.social.models import CHAT_MAX_LENGTH

TEMPLATE = "games/quick_match.html"


@login_required
def quick_match(request: HttpRequest) -> HttpResponse:
    """The waiting page, or the form to find a game when the player is not waiting."""
    context = status_context(request.user)
    status: queue.QueueStatus = context["status"]
    if status.entry is not None:
        initial = {"mode": status.entry.mode, "play_timer": status.entry.play_timer}
    else:
        initial = {}
    context["form"] = FindGameForm(initial=initial)
    context["bot_wait"] = int(queue.bot_wait())
    # One match at a time: the way back to it instead of the form.
    context["running_match"] = access.running_match_of(request.user)
    return render(request, TEMPLATE, context)


# Joining, leaving and starting with bots are counted per player
# (settings.RATE_LIMITS["QUEUE"]), each a 429 page past the limit; the
# tables they make count against TABLES and BOT_MATCHES in the services.
@login_required
@require_POST
@ratelimit(group="queue", key="user", rate=rate("QUEUE"))
def find_game(request: HttpRequest) -> HttpResponse:
    """Join the queue; straight to the table when four are there already."""
    form = FindGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a game and a play timer."))
        return redirect("social:quick")
    try:
        entry = queue.join(
            request.user, mode=form.cleaned_data["mode"], play_timer=form.cleaned_data["play_timer"]
        )
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("social:quick")
    if entry.status == entry.Status.MATCHED and entry.match_id:
        return redirect("play:table", entry.match_id)
    return redirect("social:quick")


@login_required
@require_POST
@ratelimit(group="queue", key="user", rate=rate("QUEUE"))
def cancel(request: HttpRequest) -> HttpResponse:
    """Leave the queue."""
    try:
        queue.cancel(request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.info(request, _("You left the queue."))
    return redirect("social:quick")


@login_required
@require_POST
@ratelimit(group="queue", key="user", rate=rate("QUEUE"))
def with_bots(request: HttpRequest) -> HttpResponse:
    """Stop waiting: start now with bots in the empty seats (an unrated match)."""
    try:
        match = queue.fill_with_bots(request.user)
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("social:quick")
    return redirect("play:table", match.pk)


# --- Table chat -----------------------------------------------------------------


def _chat_answer(
    request: HttpRequest, pk: int, *, partial: str, error: str = "", status: int = 200
) -> HttpResponse:
    """The chat's form (or panel) for htmx; back to the table for a plain form post."""
    if not request.htmx:  # type: ignore[attr-defined]
        if error:
            messages.error(request, error)
        return redirect("play:table", pk)
    try:
        where = chat.seating(pk)
    except ServiceError:
        raise Http404 from None
    context = chat_context(where, request.user, invite=held(request.session, pk), error=error)
    if context["chat"] is None:
        raise Http404
    return render(request, f"games/chat.html#{partial}", context, status=status)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def chat_post(request: HttpRequest, pk: int) -> HttpResponse:
    """Say something (or a quick phrase) at the table; the line arrives over the socket."""
    try:
        chat.post(
            request.user,
            pk,
            text=request.POST.get("text", "")[: CHAT_MAX_LENGTH * 4],
            phrase=request.POST.get("phrase", ""),
            invite=held(request.session, pk),
        )
    except MatchNotFound:
        raise Http404 from None
    except ServiceError as error:
        status = 429 if isinstance(error, chat.ChatTooFast) else 403
        if isinstance(error, chat.BadChatMessage):
            status = 400
        return _chat_answer(request, pk, partial="form", error=str(error), status=status)
    return _chat_answer(request, pk, partial="form")


@login_required
@require_POST
@vary_on_headers("HX-Request")
def chat_mute(request: HttpRequest, pk: int) -> HttpResponse:
    """Mute or unmute a player's chat lines (remembered for every table)."""
    player = request.POST.get("player", "")
    if not (player.isascii() and player.isdigit()):
        return HttpResponse(status=400)
    try:
        if request.POST.get("op") == "unmute":
            chat.unmute(request.user, int(player))
        else:
            chat.mute(request.user, int(player), match_id=pk, invite=held(request.session, pk))
    except MatchNotFound:
        raise Http404 from None
    except ServiceError as error:
        return _chat_answer(request, pk, partial="panel", error=str(error), status=400)
    return _chat_answer(request, pk, partial="panel")


@login_required
@require_POST
@vary_on_headers("HX-Request")
def chat_report(request: HttpRequest, pk: int) -> HttpResponse:
    """Report a chat line to staff."""
    message = request.POST.get("message", "")
    if not (message.isascii() and message.isdigit()):
        return HttpResponse(status=400)
    try:
        chat.report(request.user, int(message), match_id=pk, invite=held(request.session, pk))
    except MatchNotFound:
        raise Http404 from None
    except ServiceError as error:
        if request.htmx:  # type: ignore[attr-defined]
            return HttpResponse(str(error), status=400, content_type="text/plain; charset=utf-8")
        messages.error(request, str(error))
        return redirect("play:table", pk)
    if request.htmx:  # type: ignore[attr-defined]
        return render(request, "games/chat.html#reported", {})
    messages.info(request, _("Reported. Thank you."))
    return redirect("play:table", pk)


@login_required
@require_POST
def chat_setting(request: HttpRequest) -> HttpResponse:
    """Switch the table chat on or off for oneself."""
    form = ChatSettingForm(request.POST)
    enabled = form.is_valid() and form.cleaned_data["chat_enabled"]
    chat.set_chat_enabled(request.user, enabled)
    messages.success(
        request, _("The table chat is on.") if enabled else _("The table chat is off.")
    )
    return redirect(reverse("accounts:profile") + "#chat-setting")


# --- Rematch --------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
@ratelimit(group="rematch", key="user", rate=rate("REMATCH"), method="POST")
def rematch_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The rematch panel (GET, once the table shows the match is over); POST offers or accepts."""
    if request.method == "GET":
        return _rematch_panel(request, pk)
    # Like every form of a private table, the offer takes the invite the session
    # holds, never one in its address or body (games.match.invites).
    try:
        offer = rematch.accept(request.user, pk, invite=held(request.session, pk))
    except MatchNotFound:
        # A private match one may not see answers as a missing one does.
        raise Http404 from None
    except ServiceError as error:
        if request.htmx:  # type: ignore[attr-defined]
            return HttpResponse(str(error), status=409, content_type="text/plain; charset=utf-8")
        messages.error(request, str(error))
        return redirect("play:table", pk)
    if not request.htmx:  # type: ignore[attr-defined]
        if offer.new_match_id:
            return redirect("play:table", offer.new_match_id)
        return redirect("play:table", pk)
    return _rematch_panel(request, pk)


def _rematch_panel(request: HttpRequest, pk: int) -> HttpResponse:
    invite = held(request.session, pk)
    match = Match.objects.filter(pk=pk).first()
    seats = list(Seat.objects.filter(match=match)) if match else []
    if match is None or not access.may_see(match, request.user, seats, invite):
        raise Http404
    context = rematch_context(match, request.user)
    return render(request, "games/rematch.html#panel", context)
