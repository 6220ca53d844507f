"""The lobby: play now, open a table, private invites, seats, bots and the start."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.match import services
from games.match.models import Event, Match, Seat
from tests.support.drivers import seat_everyone
from tests.support.log_check import stored

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seats_of(match: Match) -> dict[int, Seat]:
    return {s.number: s for s in Seat.objects.filter(match=match)}


def test_the_lobby_needs_a_login(client):
    response = client.get(reverse("play:lobby"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_play_now_starts_a_table_with_three_bots(players):
    client = logged_in(players[1])
    response = client.post(reverse("play:play_now"))
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("play:table", args=[match.pk])
    assert match.status == Match.Status.PLAYING
    seats = seats_of(match)
    assert seats[1].user == players[1]
    assert all(seats[n].is_bot for n in (2, 3, 4))
    assert Event.objects.filter(match=match, kind=Event.Kind.DEAL).count() == 1
    page = client.get(response["Location"]).content.decode()
    assert "Bot 3" in page
    assert 'class="hand"' in page


def test_play_now_is_a_post(players):
    assert logged_in(players[1]).get(reverse("play:play_now")).status_code == 405
    assert not Match.objects.exists()


def test_opening_a_table_with_its_settings(players):
    client = logged_in(players[1])
    response = client.post(
        reverse("play:new_table"), {"mode": "quick", "play_timer": "30", "is_private": ""}
    )
    match = Match.objects.get()
    assert response["Location"] == reverse("play:table", args=[match.pk])
    assert (match.mode, match.play_timer, match.is_private) == ("quick", 30, False)
    assert match.status == Match.Status.WAITING
    assert seats_of(match)[1].user == players[1]
    assert (match.score_a, match.score_b) == (52, 52), "Quick starts at 52"


def test_the_form_offers_10_15_30_seconds_with_15_by_default(players):
    html = logged_in(players[1]).get(reverse("play:lobby")).content.decode()
    assert '<option value="15" selected>' in html
    for seconds in ("10", "30"):
        assert f'<option value="{seconds}">' in html


def test_a_bad_setting_is_refused_with_the_form(players):
    response = logged_in(players[1]).post(
        reverse("play:new_table"), {"mode": "blitz", "play_timer": "7"}
    )
    assert response.status_code == 400
    assert not Match.objects.exists()
    assert b"field-errors" in response.content


def test_the_lists_show_open_and_running_public_tables(players, make_user):
    waiting = services.create_match(players[1])
    private = services.create_match(players[2], is_private=True)
    running = services.start_match(players[1], seat_everyone(players)).match
    visitor = logged_in(make_user("vera"))
    html = visitor.get(reverse("play:lobby")).content.decode()
    table_url = reverse("play:table", args=[waiting.pk])
    assert table_url in html
    assert reverse("play:sit", args=[waiting.pk]) in html
    assert reverse("play:table", args=[private.pk]) not in html
    assert reverse("play:table", args=[running.pk]) in html
    assert "Watch" in html


def test_the_lobby_refreshes_its_lists_with_htmx(players):
    client = logged_in(players[1])
    full = client.get(reverse("play:lobby"))
    part = client.get(reverse("play:lobby"), HTTP_HX_REQUEST="true")
    assert "HX-Request" in part["Vary"]
    assert b'hx-trigger="every 5s"' in full.content
    assert part.content.decode().lstrip().startswith('<div id="lobby-tables"')
    assert b"<html" not in part.content


def test_taking_a_seat_and_the_seat_being_taken(players):
    match = services.create_match(players[1])
    response = logged_in(players[2]).post(reverse("play:sit", args=[match.pk]), {"number": "4"})
    assert response.status_code == 302
    assert seats_of(match)[4].user == players[2]
    before = stored(match.pk)
    taken = logged_in(players[3]).post(
        reverse("play:sit", args=[match.pk]), {"number": "4"}, HTTP_HX_REQUEST="true"
    )
    assert taken.status_code == 409
    assert "Seat 4 is already taken." in taken.content.decode()
    bad = logged_in(players[3]).post(reverse("play:sit", args=[match.pk]), {"number": "9"})
    assert bad.status_code == 400
    assert stored(match.pk) == before


def test_a_private_invite_link_lets_anyone_logged_in_sit(players, make_user):
    match = services.create_match(players[1], is_private=True)
    friend = logged_in(make_user("farah"))
    refused = friend.post(reverse("play:sit", args=[match.pk]), {"number": "3"})
    # Without the invite, the private table answers as a missing one.
    assert refused.status_code == 404
    assert seats_of(match)[3].user is None
    page = friend.get(
        reverse("play:table", args=[match.pk]), {"invite": match.invite_token}, follow=True
    )
    assert b"Sit here" in page.content
    # The seat's form carries no token: the session holds it.
    seated = friend.post(reverse("play:sit", args=[match.pk]), {"number": "3"})
    assert seated.status_code == 302
    assert seats_of(match)[3].user.username == "farah"


def test_bots_are_added_and_removed_by_members_only(players, make_user):
    match = services.create_match(players[1])
    url = reverse("play:bot", args=[match.pk])
    creator = logged_in(players[1])
    added = creator.post(url, {"number": "2", "op": "add"}, HTTP_HX_REQUEST="true")
    assert added.status_code == 200
    assert "Remove the bot" in added.content.decode()
    assert seats_of(match)[2].is_bot
    stranger = logged_in(make_user("sam"))
    before = stored(match.pk)
    assert stranger.post(url, {"number": "3", "op": "add"}).status_code == 403
    assert stranger.post(url, {"number": "3", "op": "fly"}).status_code == 400
    assert stored(match.pk) == before
    assert creator.post(url, {"number": "2", "op": "remove"}).status_code == 302
    assert not seats_of(match)[2].is_bot
    assert creator.post(url, {"number": "2", "op": "remove"}).status_code == 409


def test_the_match_starts_when_four_seats_are_filled(players):
    match = services.create_match(players[1])
    creator = logged_in(players[1])
    start = reverse("play:start", args=[match.pk])
    early = creator.post(start, HTTP_HX_REQUEST="true")
    assert early.status_code == 409
    assert "All four seats must be filled" in early.content.decode()
    waiting = creator.get(reverse("play:table", args=[match.pk])).content.decode()
    assert "Start the match" not in waiting
    for number in (2, 3, 4):
        services.add_bot(players[1], match, number)
    assert "Start the match" in creator.get(reverse("play:table", args=[match.pk])).content.decode()
    started = creator.post(start, HTTP_HX_REQUEST="true")
    assert started.status_code == 200
    assert 'class="hand"' in started.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


def test_the_waiting_room_does_not_poll_its_changes_are_pushed(players):
    match = services.create_match(players[1])
    html = logged_in(players[1]).get(reverse("play:table", args=[match.pk])).content.decode()
    assert "every 3s" not in html
    assert "ws-connect" in html
    assert "Partner: seat 3" in html
