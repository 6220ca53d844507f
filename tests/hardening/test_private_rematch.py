"""A rematch of a private match stays private, and an outsider cannot tell it from a missing one."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.match.models import Match
from games.social import rematch
from games.social.models import RematchOffer
from tests.support.drivers import start_match
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db


def rematch_of(finished: Match, players: dict[int, User]) -> Match:
    for number in (1, 2, 3, 4):
        offer = rematch.accept(players[number], finished.pk)
    assert offer.new_match is not None
    return Match.objects.get(pk=offer.new_match.pk)


def test_the_rematch_of_a_private_match_is_private_with_a_fresh_invite(
    players: dict[int, User],
):
    finished = start_match(players, mode="quick", private=True, seed=3).finish_match()
    before = timezone.now()
    new = rematch_of(finished, players)
    assert new.is_private
    assert new.creator == finished.creator
    assert new.invite_token != finished.invite_token
    assert new.invite_issued_at is not None
    assert finished.invite_issued_at is not None
    assert new.invite_issued_at >= before > finished.invite_issued_at
    stranger = client_for(create_player("stranger"))
    # Not listed in the lobby, not watchable, no replay, no match page, no chat.
    assert f"/match/{new.pk}/" not in stranger.get("/lobby/").content.decode()
    assert stranger.get(f"/match/{new.pk}/").status_code == 404
    assert stranger.get(f"/matches/{new.pk}/").status_code == 404
    assert stranger.get(f"/matches/{new.pk}/deals/1/").status_code == 404
    assert stranger.get(f"/matches/{new.pk}/notation/").status_code == 404
    assert stranger.post(f"/match/{new.pk}/chat/", {"text": "hello"}).status_code == 404
    # Nor does the old match's invite open the new one: its link is taken into the
    # session as any link is, with the same redirect (the answer tells nothing),
    # and the table it leads to is missing to the stranger.
    old_invite = stranger.get(f"/match/{new.pk}/?invite={finished.invite_token}", follow=True)
    assert old_invite.redirect_chain == [(f"/match/{new.pk}/", 302)]
    assert old_invite.status_code == 404
    # The players sit at it; the new link lets a guest watch.
    assert client_for(players[2]).get(f"/match/{new.pk}/").status_code == 200
    new_invite = stranger.get(f"/match/{new.pk}/?invite={new.invite_token}", follow=True)
    assert new_invite.redirect_chain == [(f"/match/{new.pk}/", 302)]
    assert new_invite.status_code == 200
    # An invited spectator of the old match is not shown the way to the new one.
    spectator = client_for(create_player("spectator"))
    spectator.get(f"/match/{finished.pk}/?invite={finished.invite_token}")
    panel = spectator.get(f"/match/{finished.pk}/rematch/", headers={"HX-Request": "true"})
    assert panel.status_code == 200
    assert "The rematch has started." in panel.content.decode()
    assert f"/match/{new.pk}/" not in panel.content.decode()


def test_a_public_matchs_rematch_stays_public(players: dict[int, User]):
    finished = start_match(players, mode="quick", seed=3).finish_match()
    new = rematch_of(finished, players)
    assert not new.is_private
    assert client_for(create_player("stranger")).get(f"/match/{new.pk}/").status_code == 200


@pytest.mark.parametrize("htmx", [False, True])
def test_a_private_match_and_a_missing_one_answer_the_rematch_post_alike(
    players: dict[int, User], htmx: bool
):
    finished = start_match(players, mode="quick", private=True, seed=3).finish_match()
    missing = finished.pk + 1000
    outsider = client_for(create_player("outsider"))
    headers = {"HX-Request": "true"} if htmx else {}
    private = outsider.post(f"/match/{finished.pk}/rematch/", headers=headers)
    absent = outsider.post(f"/match/{missing}/rematch/", headers=headers)
    assert (private.status_code, absent.status_code) == (404, 404)
    assert not RematchOffer.objects.exists()
    # An invite in the post's address alone opens nothing: only the session's counts.
    in_address = outsider.post(
        f"/match/{finished.pk}/rematch/?invite={finished.invite_token}", headers=headers
    )
    assert in_address.status_code == 404
    # With the invite link taken, the outsider may see the match: told they have no seat there.
    outsider.get(f"/match/{finished.pk}/?invite={finished.invite_token}")
    invited = outsider.post(f"/match/{finished.pk}/rematch/", headers=headers)
    assert invited.status_code == (409 if htmx else 302)
    # A running private match answers the same 404, never "not finished yet".
    running = start_match({n: create_player(f"r{n}") for n in (1, 2, 3, 4)}, private=True).match
    assert outsider.post(f"/match/{running.pk}/rematch/", headers=headers).status_code == 404
