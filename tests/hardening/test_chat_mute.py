"""Muting reveals no name: only someone who wrote in the viewer's room at that table is muted."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.match.models import Match
from games.social import chat
from games.social.models import ChatMute
from tests.support.drivers import started_match
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(players: dict[int, User]) -> Match:
    return started_match(players).match


def mute(viewer: User, match: Match, player: int, invite: str = "") -> tuple[int, str]:
    answer = client_for(viewer).post(
        f"/match/{match.pk}/chat/mute/",
        {"player": str(player), "op": "mute", "invite": invite},
        headers={"HX-Request": "true"},
    )
    return answer.status_code, answer.content.decode()


def test_a_user_who_never_wrote_there_cannot_be_muted_and_is_not_named(table, players):
    staff = User.objects.create_user("site-admin-hidden-name", is_staff=True)
    quiet = create_player("quiet-stranger")
    for user in (staff, quiet):
        status, body = mute(players[1], table, user.pk)
        assert status == 400
        assert user.get_username() not in body
    # Ids that belong to nobody answer the same way.
    status, body = mute(players[1], table, quiet.pk + 1000)
    assert status == 400
    assert not ChatMute.objects.exists()


def test_the_other_rooms_writers_are_not_the_viewers_to_mute(table, players):
    watcher = create_player("watcher-in-the-stands")
    chat.post(watcher, table.pk, text="from the stands")
    status, body = mute(players[2], table, watcher.pk)
    assert status == 400
    assert "watcher-in-the-stands" not in body
    # Someone with no room at a table cannot use it to mute anyone.
    private = started_match({n: create_player(f"p{n}") for n in (1, 2, 3, 4)}, is_private=True)
    chat.post(private.match.seats.get(number=1).user, private.match.pk, text="hi")
    author = private.match.seats.get(number=1).user
    assert mute(watcher, private.match, author.pk)[0] == 404
    assert not ChatMute.objects.exists()


def test_an_author_in_the_viewers_room_is_muted(table, players):
    chat.post(players[1], table.pk, text="hello all")
    status, body = mute(players[3], table, players[1].pk)
    assert status == 200
    assert "Muted players" in body
    assert chat.muted_ids(players[3]) == {players[1].pk}
