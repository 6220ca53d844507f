"""Addresses of quick match, the table chat and rematch."""

from __future__ import annotations

from django.urls import path

from games.social import views

app_name = "social"

urlpatterns = [
    path("quick/", views.quick_match, name="quick"),
    path("quick/find/", views.find_game, name="find_game"),
    path("quick/cancel/", views.cancel, name="quick_cancel"),
    path("quick/bots/", views.with_bots, name="quick_bots"),
    path("match/<int:pk>/chat/", views.chat_post, name="chat"),
    path("match/<int:pk>/chat/mute/", views.chat_mute, name="chat_mute"),
    path("match/<int:pk>/chat/report/", views.chat_report, name="chat_report"),
    path("match/<int:pk>/rematch/", views.rematch_view, name="rematch"),
    path("chat/settings/", views.chat_setting, name="chat_setting"),
]
