"""The language a logged-in player chose, kept on their profile and in their session.

Django picks the language from the language cookie, else the browser's
Accept-Language (``LocaleMiddleware``). A player who chooses one while logged
in has it saved on their ``Profile``; logging in copies it into the session,
and ``PreferredLanguageMiddleware`` activates it on each request and keeps
the cookie in step, so that the table's WebSocket (which reads the cookie)
speaks it too. Reading the session costs no query on a page that already
loads it for authentication.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import LANGUAGE_QUERY_PARAMETER
from django.views.i18n import set_language as django_set_language

from accounts.models import Profile

SESSION_KEY = "preferred_language"
# The player's card colours, read by every page's template (base.html).
FOUR_COLOUR_KEY = "four_colour"


def is_offered(code: str) -> bool:
    """True when ``code`` is one of the site's languages (settings.LANGUAGES)."""
    return code in dict(settings.LANGUAGES)


def set_language_cookie(response: HttpResponseBase, code: str) -> None:
    """Set the language cookie as Django's ``set_language`` view does."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (cookie and redirect), saving the choice for a logged-in player."""
    response = django_set_language(request)
    code = request.POST.get(LANGUAGE_QUERY_PARAMETER, "")
    if is_offered(code) and request.user.is_authenticated:
        Profile.objects.update_or_create(user=request.user, defaults={"language": code})
        request.session[SESSION_KEY] = code
    return response


@receiver(user_logged_in, dispatch_uid="accounts.language.remember_on_login")
def remember_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Copy the player's saved language and card colours into their new session."""
    if request is None or not hasattr(request, "session"):
        return
    saved = Profile.objects.filter(user=user).values_list("language", "four_colour").first()
    code, four_colour = saved or ("", False)
    if code and is_offered(code):
        request.session[SESSION_KEY] = code
    if four_colour:
        request.session[FOUR_COLOUR_KEY] = True


class PreferredLanguageMiddleware:
    """Activate the logged-in player's saved language; keep the language cookie in step."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        code = _preferred(request)
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        # Read again: logging in or choosing a language may have just set it.
        code = _preferred(request)
        if code and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != code:
            set_language_cookie(response, code)
        return response


def _preferred(request: HttpRequest) -> str:
    session = getattr(request, "session", None)
    code = session.get(SESSION_KEY, "") if session is not None else ""
    return code if isinstance(code, str) and is_offered(code) else ""
