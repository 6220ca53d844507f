"""Addresses of the games pages."""

from __future__ import annotations

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("<int:pk>/", views.match_detail, name="detail"),
]
