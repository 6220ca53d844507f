"""Addresses of the games pages."""

from __future__ import annotations

from django.urls import path

from games.history import views

app_name = "games"

urlpatterns = [
    path("mine/", views.my_matches, name="mine"),
    path("import/", views.import_notation, name="import"),
    path("import/<int:pk>/", views.import_job, name="import_job"),
    path("<int:pk>/", views.match_detail, name="detail"),
    path("<int:pk>/deals/<int:number>/", views.deal_replay, name="replay"),
    path("<int:pk>/notation/", views.export_notation, name="export"),
]
