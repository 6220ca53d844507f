"""Invite links expire, and the table's creator can issue a new one or turn it off.

An invite link leaves its token in the session and sends the visitor on to
the same address without it (``games.match.invites``): these tests follow
that redirect."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import rules
from games.match import services
from games.match.errors import InviteRequired, MatchNotFound, NotTheHost
from games.match.models import ImportJob, Match
from stacks.documents import long_document
from tests.support.clock import reload
from tests.support.imports import store_queued_imports
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

DAY = 24 * 60 * 60


def table_url(match: Match, invite: str = "") -> str:
    url = reverse("play:table", args=[match.pk])
    return f"{url}?invite={invite}" if invite else url


@pytest.fixture
def private(players) -> Match:
    return services.create_match(players[1], is_private=True)


def issued_ago(match: Match, seconds: float) -> None:
    Match.objects.filter(pk=match.pk).update(
        invite_issued_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_an_invite_link_stops_working_when_it_expires(private, players, settings):
    settings.INVITE_MAX_AGE_SECONDS = 2 * DAY
    token = private.invite_token
    guest = client_for(players[2])
    assert guest.get(table_url(private, token), follow=True).status_code == 200
    issued_ago(private, 2 * DAY - 60)
    assert guest.get(table_url(private, token), follow=True).status_code == 200
    issued_ago(private, 2 * DAY + 1)
    assert guest.get(table_url(private, token), follow=True).status_code == 404
    with pytest.raises(InviteRequired):
        services.take_seat(players[2], private, 2, invite_token=token)
    # The creator sees that it expired, and can issue a new one.
    page = client_for(players[1]).get(table_url(private)).content.decode()
    assert "The invite link has expired." in page
    client_for(players[1]).post(reverse("play:invite", args=[private.pk]), {"op": "new"})
    fresh = reload(private).invite_token
    assert fresh != token
    assert guest.get(table_url(private, fresh), follow=True).status_code == 200


def test_the_creator_issues_a_new_link_and_the_old_one_stops_working(private, players):
    old = private.invite_token
    host = client_for(players[1])
    page = host.get(table_url(private)).content.decode()
    assert f"?invite={old}" in page
    assert "New invite link" in page
    assert "Turn the invite link off" in page
    response = host.post(reverse("play:invite", args=[private.pk]), {"op": "new"})
    assert response.status_code == 302
    new = reload(private).invite_token
    assert new != old
    page = host.get(table_url(private)).content.decode()
    assert f"?invite={new}" in page
    assert old not in page
    guest = client_for(players[2])
    assert guest.get(table_url(private, old), follow=True).status_code == 404
    assert guest.get(table_url(private, new), follow=True).status_code == 200


def test_the_creator_turns_the_link_off(private, players):
    token = private.invite_token
    host = client_for(players[1])
    host.post(reverse("play:invite", args=[private.pk]), {"op": "off"})
    private = reload(private)
    assert private.invite_issued_at is None
    assert client_for(players[2]).get(table_url(private, token), follow=True).status_code == 404
    assert (
        client_for(players[2])
        .get(table_url(private, private.invite_token), follow=True)
        .status_code
        == 404
    )
    page = host.get(table_url(private)).content.decode()
    assert "The invite link is turned off." in page
    assert "?invite=" not in page


def test_only_the_creator_may_change_the_link(private, players):
    token = private.invite_token
    services.take_seat(players[2], private, 2, invite_token=token)
    # A seated guest is told it is the host's call; a stranger finds no such match.
    with pytest.raises(NotTheHost):
        services.reissue_invite(players[2], private)
    with pytest.raises(MatchNotFound):
        services.reissue_invite(players[3], private)
    assert (
        client_for(players[2])
        .post(reverse("play:invite", args=[private.pk]), {"op": "off"})
        .status_code
        == 403
    )
    assert (
        client_for(players[3])
        .post(reverse("play:invite", args=[private.pk]), {"op": "off"})
        .status_code
        == 404
    )
    assert reload(private).invite_token == token
    assert reload(private).invite_issued_at is not None


def test_the_link_of_an_imported_match_is_managed_from_its_page(players):
    text = long_document(3)
    services.queue_import(players[1], rules.read_document(text), text)
    store_queued_imports()
    match = ImportJob.objects.get().match
    old = match.invite_token
    owner = client_for(players[1])
    page = owner.get(match.get_absolute_url()).content.decode()
    assert f"?invite={old}" in page
    assert "Turn the invite link off" in page
    response = owner.post(reverse("play:invite", args=[match.pk]), {"op": "new", "back": "match"})
    assert response["Location"] == match.get_absolute_url()
    new = reload(match).invite_token
    friend = client_for(players[2])
    assert friend.get(match.get_absolute_url(), {"invite": old}, follow=True).status_code == 404
    assert friend.get(match.get_absolute_url(), {"invite": new}, follow=True).status_code == 200
