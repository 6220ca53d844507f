"""The live table: its page, the one action endpoint and the seat buttons.

Every change goes through ``games.match.services``; every answer is the table
region drawn for the asking user by the same hub the pushes come from
(``games.table.live``), so an htmx response, a WebSocket push and a page load
show the same thing. The answer to an action is drawn from what the service
returned, not read again. Plain form posts without JavaScript are answered
with a redirect back to the page.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers
from django_ratelimit.decorators import ratelimit

from baloot_site.limits import rate
from games.match import services
from games.match.access import may_see
from games.match.errors import MalformedAction, MatchNotFound, ServiceError
from games.match.invites import held, takes_invite_link
from games.match.models import Match
from games.match.versions import MatchVersion, read
from games.table.context import TEMPLATE, viewer_of
from games.table.forms import BotForm, SeatForm
from games.table.live import HUB, Picture
from games.table.refusals import refusal_message, refusal_status

# Bigger bodies are never a Baloot action; refuse them before parsing.
MAX_ACTION_BYTES = 4096


@takes_invite_link
@login_required
@vary_on_headers("HX-Request")
def table(request: HttpRequest, pk: int) -> HttpResponse:
    """The table page; an htmx request gets the table region alone.

    A private table's invite link leaves its token in the session
    (``games.match.invites``), where this page and its forms find it.
    """
    version = _visible_version(request, pk)
    if version is None:
        raise Http404
    picture = _picture(request, version)
    if request.htmx:  # type: ignore[attr-defined]
        return HttpResponse(picture.answer(request))
    return _page(request, picture)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def act(request: HttpRequest, pk: int) -> HttpResponse:
    """Record one action of the user's seat: ``action`` (JSON) seen at ``expected_seq``."""
    try:
        action, expected_seq = _action_input(request)
        outcome = services.submit(request.user, pk, action, expected_seq)
    except ServiceError as error:
        return _refused(request, pk, error)
    return _done(request, pk, version=outcome.version)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def sit(request: HttpRequest, pk: int) -> HttpResponse:
    """Take a free seat (its partner is the seat opposite)."""
    form = SeatForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, MalformedAction(_("Choose a seat from 1 to 4.")))
    number = form.cleaned_data["number"]
    invite = held(request.session, pk)
    return _seat_change(
        request, pk, lambda: services.take_seat(request.user, pk, number, invite_token=invite)
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
@ratelimit(group="away", key="user", rate=rate("AWAY"))
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    """Leave the table: a free seat before the start, a bot plays it afterwards."""
    return _seat_change(request, pk, lambda: services.leave_seat(request.user, pk))


@login_required
@require_POST
@vary_on_headers("HX-Request")
def bot(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a bot to an empty seat, or remove one, before the start."""
    form = BotForm(request.POST)
    if not form.is_valid():
        return _refused(
            request, pk, MalformedAction(_("Choose a seat from 1 to 4 and a bot level."))
        )
    number = form.cleaned_data["number"]
    if form.cleaned_data["op"] == "add":
        level = form.cleaned_data["level"]
        return _seat_change(request, pk, lambda: services.add_bot(request.user, pk, number, level))
    return _seat_change(request, pk, lambda: services.remove_bot(request.user, pk, number))


@login_required
@require_POST
@vary_on_headers("HX-Request")
def remove_player(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's host frees a seat from the person in it, before the start."""
    form = SeatForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, MalformedAction(_("Choose a seat from 1 to 4.")))
    number = form.cleaned_data["number"]
    return _seat_change(request, pk, lambda: services.remove_player(request.user, pk, number))


@login_required
@require_POST
@vary_on_headers("HX-Request")
def start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the match once all four seats are filled."""
    return _seat_change(request, pk, lambda: services.start_match(request.user, pk))


@login_required
@require_POST
@vary_on_headers("HX-Request")
@ratelimit(group="away", key="user", rate=rate("AWAY"))
def come_back(request: HttpRequest, pk: int) -> HttpResponse:
    """Take one's seat back from the bot that played it."""
    return _seat_change(request, pk, lambda: services.come_back(request.user, pk))


@login_required
@require_POST
def invite(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator issues a new invite link (``op=new``; the old one stops working) or
    turns it off (``op=off``), then is back on the table, or the match page (``back=match``).
    """
    op = request.POST.get("op", "")
    if op not in ("new", "off"):
        return _refused(request, pk, MalformedAction(_("Choose a new link or no link.")))
    try:
        services.reissue_invite(request.user, pk, on=op == "new")
    except ServiceError as error:
        return _refused(request, pk, error)
    if request.POST.get("back") == "match":
        return redirect(reverse("games:detail", args=[pk]))
    return redirect(reverse("play:table", args=[pk]))


def _action_input(request: HttpRequest) -> tuple[Any, Any]:
    """The posted action and move number; raises MalformedAction.

    A form post carries ``action`` as JSON text (the button's value) and
    ``expected_seq``; a JSON body carries both as an object. The Baloot
    toggle adds ``baloot`` to a card play.
    """
    # The declared length, not the body itself: a form (multipart or not)
    # has already been read by the CSRF check, and its body is gone.
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or int(length) > MAX_ACTION_BYTES:
        raise MalformedAction(_("This action is far too long."))
    if request.content_type == "application/json":
        body = _json(request.body)
        if not isinstance(body, dict):
            raise MalformedAction(_("Send an object with “action” and “expected_seq”."))
        return body.get("action"), body.get("expected_seq")
    action = _json(request.POST.get("action", ""))
    if isinstance(action, dict) and "play" in action and request.POST.get("baloot") == "on":
        action["baloot"] = True
    seen = request.POST.get("expected_seq", "")
    return action, int(seen) if seen.isascii() and seen.isdigit() else seen


def _json(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise MalformedAction(_("The action is not valid JSON.")) from None


def _seat_change(request: HttpRequest, pk: int, change: Callable[[], object]) -> HttpResponse:
    try:
        change()
    except ServiceError as error:
        return _refused(request, pk, error)
    return _done(request, pk)


def _done(request: HttpRequest, pk: int, version: MatchVersion | None = None) -> HttpResponse:
    """The table as it now is (``version`` if given): the region for htmx, a redirect for a form."""
    if not request.htmx:  # type: ignore[attr-defined]
        return redirect(reverse("play:table", args=[pk]), permanent=False)
    if version is None:
        version = HUB.version(pk, 0, None, fresh=True)
    return HttpResponse(_picture(request, version).answer(request))


def _refused(request: HttpRequest, pk: int, error: ServiceError) -> HttpResponse:
    """The refusal's message with a 4xx status, and the table as it is when it may be seen."""
    version = _visible_version(request, pk)
    if version is None:
        # Whatever went wrong, a match the user may not see is answered
        # exactly as a match that does not exist.
        error = MatchNotFound()
    status = refusal_status(error)
    message = refusal_message(error)
    if version is None:
        if request.htmx:  # type: ignore[attr-defined]
            return render(request, f"{TEMPLATE}#refusal", {"error": message}, status=status)
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    picture = _picture(request, version)
    if request.htmx:  # type: ignore[attr-defined]
        return HttpResponse(picture.answer(request, error=message), status=status)
    messages.error(request, message)
    return _page(request, picture, status=status)


def _picture(request: HttpRequest, version: MatchVersion) -> Picture:
    """The asking user's picture of ``version``, shared with their sockets in this process."""
    invite = held(request.session, version.match.pk)
    viewer = viewer_of(version, request.user, invite=invite, language=get_language())
    return HUB.picture(version, viewer, fresh=True)


def _page(request: HttpRequest, picture: Picture, status: int = 200) -> HttpResponse:
    """The whole table page around ``picture``."""
    context = dict(picture.context)
    context["table_html"] = mark_safe(picture.answer(request))
    return render(request, TEMPLATE, context, status=status)


def _visible_version(request: HttpRequest, pk: int) -> MatchVersion | None:
    """The match as it is, if the user may look at it (with the invite their session holds)."""
    try:
        version = read(pk)
    except Match.DoesNotExist:
        return None
    invite = held(request.session, pk)
    return version if may_see(version.match, request.user, version.seats.values(), invite) else None
