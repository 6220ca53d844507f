"""The site's URLs: home, rules, accounts, lobby and live tables, matches, languages, admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from accounts.language import set_language
from health.views import health

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("rules/", TemplateView.as_view(template_name="rules.html"), name="rules"),
    path("accounts/", include("accounts.urls")),
    path("", include("games.table.urls")),
    path("", include("games.social.urls")),
    path("", include("games.ratings.urls")),
    path("matches/", include("games.history.urls")),
    # The language switcher posts here (Django's set_language, remembered for players).
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
    # For the proxy and monitors: database, channel layer, worker.
    path("health/", health, name="health"),
]
