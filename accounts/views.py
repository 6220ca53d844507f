"""Accounts pages: sign up, log in and out, change password, profile."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.urls import Resolver404, resolve, reverse, reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.generic import FormView, TemplateView
from django_ratelimit.decorators import ratelimit

from accounts.forms import SignUpForm
from accounts.language import FOUR_COLOUR_KEY
from accounts.limits import rate
from accounts.models import Profile
from games.history.my_matches import history_lines, my_seats
from games.match.invites import held
from games.match.models import Match
from games.table.session_end import end_table_sockets

# The query parameter and form field that carry the page to go to after signing up.
NEXT = "next"
# The profile lists the latest matches; "My matches" pages through them all.
RECENT_MATCHES = 10


def invited_to(request: HttpRequest, url: str) -> bool:
    """True when ``url`` is the page of a match whose invite the visitor's session holds
    (``games.match.invites``): they came by an invite link."""
    try:
        found = resolve(urlsplit(url).path)
    except Resolver404:
        return False
    pk = found.kwargs.get("pk")
    return isinstance(pk, int) and bool(held(request.session, pk))


# Sign-ups and log-in attempts are counted per address (the client's, as the
# trusted proxy reports it): settings.RATE_LIMITS, a 429 page past them.
@method_decorator(
    ratelimit(group="signup", key="ip", rate=rate("SIGNUP"), method="POST"), name="post"
)
class SignUpView(FormView):
    """Create an account and log straight in, then go where the visitor was heading.

    A visitor sent here from an invite link (``next``, passed on by the login
    page) lands on that table; anyone else lands in the lobby, where "Play
    now" is the first thing on the page.
    """

    form_class = SignUpForm
    template_name = "accounts/signup.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated:
            return redirect(self.next_url() or reverse("accounts:profile"))
        return super().dispatch(request, *args, **kwargs)

    def next_url(self) -> str:
        """The page the visitor wanted, if it is one of this site's; else empty."""
        wanted = self.request.POST.get(NEXT, self.request.GET.get(NEXT, ""))
        safe = url_has_allowed_host_and_scheme(
            wanted,
            allowed_hosts={self.request.get_host()},
            require_https=self.request.is_secure(),
        )
        return wanted if safe else ""

    def get_success_url(self) -> str:
        # The lobby scrolled to "Play now", the quickest way to a first game.
        return self.next_url() or f"{reverse('play:lobby')}#play-now-heading"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context[NEXT] = self.next_url()
        context["invited"] = invited_to(self.request, context[NEXT])
        return context

    def form_valid(self, form: SignUpForm) -> HttpResponse:
        user = form.save()
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            self.request,
            _("Welcome, %(name)s! Your account is ready.") % {"name": user.get_username()},
        )
        return super().form_valid(form)


@method_decorator(
    ratelimit(group="login", key="ip", rate=rate("LOGIN"), method="POST"), name="post"
)
class LoginView(auth_views.LoginView):
    """Log in; someone already logged in goes to their profile."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["invited"] = invited_to(self.request, context.get(self.redirect_field_name) or "")
        return context


class LogoutView(auth_views.LogoutView):
    """Log out (POST only) and say so on the next page."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user_id = request.user.pk
        response = super().post(request, *args, **kwargs)
        if user_id is not None:
            # Open table pages stop receiving the player's hand.
            end_table_sockets(user_id)
        messages.info(request, _("You have logged out. See you at the table!"))
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """Change the password, keeping the player logged in."""

    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        # Every open table page closes; this browser's reconnects at once,
        # the other sessions, now ended, cannot.
        end_table_sockets(form.user.pk)
        messages.success(self.request, _("Your password has been changed."))
        return response


class CardColoursView(LoginRequiredMixin, View):
    """Save the player's choice of two- or four-colour suits (POST), then back to the profile."""

    def post(self, request: HttpRequest) -> HttpResponse:
        four_colour = request.POST.get("four_colour") == "on"
        Profile.objects.update_or_create(user=request.user, defaults={"four_colour": four_colour})
        request.session[FOUR_COLOUR_KEY] = four_colour
        messages.success(request, _("Your card colours are saved."))
        return redirect("accounts:profile")


class ProfileView(LoginRequiredMixin, TemplateView):
    """The player's record and their latest matches."""

    template_name = "accounts/profile.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        # LoginRequiredMixin has turned anonymous visitors away.
        user = cast(User, self.request.user)
        counted = Match.objects.counted()
        context.update(
            played=counted.involving(user).count(),
            won=counted.won_by(user).count(),
            rows=history_lines(my_seats(user)[:RECENT_MATCHES]),
            four_colour=bool(self.request.session.get(FOUR_COLOUR_KEY)),
        )
        return context
