"""The ratings pages: how ratings work, the leaderboards, players' public profiles."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games.match.models import Match
from games.ratings import explain, formula, leaderboard, policy
from games.ratings.models import PROVISIONAL_MATCHES
from games.ratings.profile import profile_of


@require_GET
def about(request: HttpRequest) -> HttpResponse:
    """How a rating is computed: which matches are rated, its parameters, the leaver rule
    and a worked example."""
    played, left = explain.examples()
    return render(
        request,
        "games/ratings.html",
        {
            "formula": formula,
            "provisional_matches": PROVISIONAL_MATCHES,
            "start": formula.Skill(),
            "played": played,
            "left": left,
            "repeat_hours": policy.repeat_hours(),
            "pair_limit": policy.pair_daily_limit(),
        },
    )


@require_GET
def board(request: HttpRequest) -> HttpResponse:
    """One mode's leaderboard, all time or this month, a page at a time, the viewer's rank shown."""
    mode = leaderboard.mode_or_default(request.GET.get("mode"))
    period = leaderboard.period_or_default(request.GET.get("period"))
    mine = leaderboard.own_rank(request.user, mode, period)
    number = request.GET.get("page")
    if number == "mine" and mine is not None:
        number = str(mine.page)
    page, rows = leaderboard.page_of(mode, period, number)
    return render(
        request,
        "games/leaderboard.html",
        {
            "mode": mode,
            "period": period,
            "modes": Match.Mode.choices,
            "page": page,
            "rows": rows,
            "mine": mine,
            "provisional_matches": PROVISIONAL_MATCHES,
        },
    )


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public profile; 404 for a name nobody has (one with a NUL character
    included: no username holds one, and PostgreSQL refuses to compare text with it)."""
    if "\x00" in username:
        raise Http404
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(
        request,
        "games/player_profile.html",
        {"player": player, "profile": profile_of(player, request.user)},
    )
