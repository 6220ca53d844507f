"""The public pages: home, a match's page, and the friendly error pages."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import reverse

from games.match import services
from games.match.models import Event
from tests.support.drivers import Table

pytestmark = pytest.mark.django_db


def test_home_page_says_what_the_site_is(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Baloot, the Saudi card game" in html
    assert reverse("accounts:signup") in html
    # htmx comes from our own static files, never from a CDN.
    assert "/static/django_htmx/htmx-2.min.js" in html
    assert "https://" not in html


def test_match_page_shows_teams_and_the_score_sheet(client, table: Table):
    table.finish_deal()
    match = table.outcome.match
    client.force_login(table.players[1])
    response = client.get(reverse("games:detail", args=[match.pk]))
    assert response.status_code == 200
    (row,) = response.context["rows"]
    result = table.state.results[0].to_json()
    assert (row.us.total, row.them.total) == (result["score"]["A"], result["score"]["B"])
    html = response.content.decode()
    for name in ("alice", "bob", "carol", "dave"):
        assert name in html
    assert 'id="score-sheet"' in html


def test_match_page_never_shows_the_deal_in_progress(client, table: Table):
    client.force_login(table.players[1])
    html = client.get(reverse("games:detail", args=[table.outcome.match.pk])).content.decode()
    assert "No deal has been completed yet." in html
    deal = Event.objects.get(match=table.outcome.match, seq=1).payload["deal"]
    assert deal["seed"] not in html


def test_the_server_error_page_renders_without_a_request():
    html = render_to_string("500.html")
    assert "Something went wrong on our side" in html


def test_private_match_is_hidden_from_outsiders(client, players, make_user):
    match = services.create_match(players[1], is_private=True)
    url = reverse("games:detail", args=[match.pk])
    client.force_login(make_user("erin"))
    response = client.get(url)
    assert response.status_code == 404
    assert b"This page is not on the table" in response.content
    assert client.get(url, {"invite": "wrong"}, follow=True).status_code == 404
    assert client.get(url, {"invite": match.invite_token}, follow=True).status_code == 200
    client.force_login(players[1])
    assert client.get(url).status_code == 200


def test_match_page_needs_a_login(client, players):
    match = services.create_match(players[1])
    response = client.get(reverse("games:detail", args=[match.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_unknown_match_is_a_friendly_404(client, players):
    client.force_login(players[1])
    response = client.get(reverse("games:detail", args=[999]))
    assert response.status_code == 404
    assert b"Back to the home page" in response.content


@override_settings(DEBUG=False)
def test_forms_without_a_csrf_token_are_refused_kindly(players):
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(reverse("accounts:login"), {"username": "alice", "password": "x"})
    assert response.status_code == 403
    assert b"This form has expired" in response.content
