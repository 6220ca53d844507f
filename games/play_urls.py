"""Addresses of the lobby and the live tables."""

from __future__ import annotations

from django.urls import path

from games import lobby_views, table_views

app_name = "play"

urlpatterns = [
    path("lobby/", lobby_views.lobby, name="lobby"),
    path("lobby/play-now/", lobby_views.play_now, name="play_now"),
    path("lobby/new/", lobby_views.new_table, name="new_table"),
    path("match/<int:pk>/", table_views.table, name="table"),
    path("match/<int:pk>/act/", table_views.act, name="act"),
    path("match/<int:pk>/sit/", table_views.sit, name="sit"),
    path("match/<int:pk>/leave/", table_views.leave, name="leave"),
    path("match/<int:pk>/bot/", table_views.bot, name="bot"),
    path("match/<int:pk>/start/", table_views.start, name="start"),
    path("match/<int:pk>/back/", table_views.come_back, name="back"),
]
