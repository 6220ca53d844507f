"""Addresses of the games pages."""

from __future__ import annotations

from django.urls import path

from games import history_views, views

app_name = "games"

urlpatterns = [
    path("mine/", history_views.my_matches, name="mine"),
    path("import/", history_views.import_notation, name="import"),
    path("<int:pk>/", views.match_detail, name="detail"),
    path("<int:pk>/deals/<int:number>/", history_views.deal_replay, name="replay"),
    path("<int:pk>/notation/", history_views.export_notation, name="export"),
]
