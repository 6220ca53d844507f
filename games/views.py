"""Pages of the games app."""

from __future__ import annotations

import secrets

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.history import access_params, match_history
from games.models import Match, Seat


def may_view(match: Match, user: object, seats: list[Seat], invite_token: str = "") -> bool:
    """True when ``user`` may look at ``match``: public, or theirs, or staff, or invited."""
    if not match.is_private:
        return True
    if getattr(user, "is_staff", False) or match.creator_id == getattr(user, "pk", None):
        return True
    if any(seat.user_id == getattr(user, "pk", None) for seat in seats):
        return True
    return bool(invite_token) and secrets.compare_digest(invite_token, match.invite_token)


@login_required
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A match's teams, score sheet, score chart and deal replays.

    A private match looks missing to outsiders.
    """
    match = get_object_or_404(Match, pk=pk)
    seats = list(Seat.objects.filter(match=match).select_related("user"))
    invite = request.GET.get("invite", "")
    if not may_view(match, request.user, seats, invite):
        raise Http404
    history = match_history(match, seats, request.user, access_params(match, invite))
    return render(
        request,
        "games/match_detail.html",
        {
            "match": match,
            "team_a": [s for s in seats if s.team == "A"],
            "team_b": [s for s in seats if s.team == "B"],
            "rows": [line.row for line in history.sheet],
            "names": history.names,
            "history": history,
        },
    )
