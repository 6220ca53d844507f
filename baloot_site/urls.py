"""The site's URLs: home, accounts, the lobby and live tables, matches and the admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("accounts.urls")),
    path("", include("games.play_urls")),
    path("matches/", include("games.urls")),
    path("admin/", admin.site.urls),
]
