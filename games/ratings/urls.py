"""Addresses of the ratings page, the leaderboards and players' profiles."""

from __future__ import annotations

from django.urls import path

from games.ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.about, name="about"),
    path("leaderboard/", views.board, name="leaderboard"),
    path("players/<str:username>/", views.profile, name="profile"),
]
