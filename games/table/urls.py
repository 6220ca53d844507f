"""Addresses of the lobby and the live tables."""

from __future__ import annotations

from django.urls import path

from games.table import lobby, views

app_name = "play"

urlpatterns = [
    path("lobby/", lobby.lobby, name="lobby"),
    path("lobby/play-now/", lobby.play_now, name="play_now"),
    path("lobby/new/", lobby.new_table, name="new_table"),
    path("match/<int:pk>/", views.table, name="table"),
    path("match/<int:pk>/act/", views.act, name="act"),
    path("match/<int:pk>/sit/", views.sit, name="sit"),
    path("match/<int:pk>/leave/", views.leave, name="leave"),
    path("match/<int:pk>/bot/", views.bot, name="bot"),
    path("match/<int:pk>/remove/", views.remove_player, name="remove_player"),
    path("match/<int:pk>/start/", views.start, name="start"),
    path("match/<int:pk>/back/", views.come_back, name="back"),
    path("match/<int:pk>/invite/", views.invite, name="invite"),
]
