"""The site's rate limits, and what a player sees when a limit refuses them: a 429 page.

Two kinds of limit end here: django-ratelimit's per-player and per-address
rates (``settings.RATE_LIMITS``, decorated views raise ``Ratelimited``) and
django-axes's log-in lockout after too many wrong passwords. The views of
``accounts`` and of ``games`` both read their rates here (``rate``), so
neither app imports the other for them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

TOO_MANY_REQUESTS = 429


def rate(name: str) -> Any:
    """A django-ratelimit ``rate`` reading ``settings.RATE_LIMITS[name]`` at each request."""

    def current(group: str, request: HttpRequest) -> str:
        return str(settings.RATE_LIMITS[name])

    return current


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """django-ratelimit's refusal: the page says to wait, with status 429."""
    return render(
        request,
        "429.html",
        {
            "heading": _("Slow down a little"),
            "explanation": _(
                "You have done this too often in a short time. Please wait a while and try again."
            ),
        },
        status=TOO_MANY_REQUESTS,
    )


def locked_out(
    request: HttpRequest, credentials: Any = None, *args: Any, **kwargs: Any
) -> HttpResponse:
    """django-axes's refusal after too many wrong passwords, with status 429."""
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    return render(
        request,
        "429.html",
        {
            "heading": _("Too many failed log-ins"),
            "explanation": _(
                "This account cannot log in from here for %(minutes)s minutes after too "
                "many wrong passwords. Wait, then try again."
            )
            % {"minutes": minutes},
        },
        status=TOO_MANY_REQUESTS,
    )
