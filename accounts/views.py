"""Accounts pages: sign up, log in and out, change password, profile."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse, reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.generic import FormView, TemplateView
from django_ratelimit.decorators import ratelimit

from accounts.forms import SignUpForm
from accounts.language import FOUR_COLOUR_KEY
from accounts.models import Profile
from accounts.signals import password_changed
from baloot_site.limits import rate

# The query parameter and form field that carry the page to go to after signing up.
NEXT = "next"


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


class LogoutView(auth_views.LogoutView):
    """Log out (POST only) and say so on the next page.

    Django's ``user_logged_out`` tells the rest of the site (``accounts.signals``).
    """

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, _("You have logged out. See you at the table!"))
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """Change the password, keeping the player logged in."""

    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        # Every open table page closes (games.apps connects the receiver);
        # this browser's reconnects at once, the other sessions, now ended, cannot.
        password_changed.send(sender=type(self), user=form.user)
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
    """The player's profile: their record and latest matches, their settings.

    The record and the matches are the games app's to show
    (``{% player_record %}``, ``games.templatetags.account_pages``).
    """

    template_name = "accounts/profile.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["four_colour"] = bool(self.request.session.get(FOUR_COLOUR_KEY))
        return context
