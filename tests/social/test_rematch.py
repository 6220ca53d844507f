"""Rematch: the same four seats play again once every person accepts; the offer lapses."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import rules
from games.match.errors import NotAllowed
from games.match.models import Match, Seat
from games.social import rematch
from games.social.models import RematchOffer
from tests.support.clock import Clock
from tests.support.drivers import Driver, start_match, start_with_bots
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(players: dict[int, User]) -> Match:
    return start_match(players, mode="quick").finish_match()


def seats_of(match: Match) -> dict[int, tuple[int | None, bool]]:
    return {s.number: (s.user_id, s.is_bot) for s in Seat.objects.filter(match=match)}


def test_the_rematch_starts_when_all_four_people_accept(clock: Clock, finished, players):
    assert finished.status == Match.Status.FINISHED
    for number in (1, 2, 3):
        offer = rematch.accept(players[number], finished.pk)
        assert offer.new_match is None
        clock.advance(5)
    offer = rematch.accept(players[4], finished.pk)
    new = offer.new_match
    assert new is not None
    assert new.status == Match.Status.PLAYING
    assert (new.mode, new.play_timer) == (finished.mode, finished.play_timer)
    # The players chose their seats at the first table, and keep them.
    assert (new.unrated, new.unrated_reason) == (True, Match.UnratedReason.CHOSEN_SEATS)
    assert seats_of(new) == seats_of(finished)
    # Accepting again changes nothing: the same new match.
    assert rematch.accept(players[1], finished.pk).new_match == new
    assert Match.objects.count() == 2


def test_bots_stay_bots_and_only_the_people_need_to_accept(clock: Clock, players):
    driver = Driver(start_with_bots(players, bots=(2, 3, 4), mode="quick"))
    driver.until(lambda state: state.phase is rules.Phase.MATCH_OVER)
    finished = Match.objects.get(pk=driver.outcome.match.pk)
    offer = rematch.accept(players[1], finished.pk)
    assert offer.new_match is not None
    assert seats_of(offer.new_match) == {
        1: (players[1].pk, False),
        2: (None, True),
        3: (None, True),
        4: (None, True),
    }


def test_the_offer_lapses_after_a_minute(clock: Clock, finished, players):
    first = rematch.accept(players[1], finished.pk)
    rematch.accept(players[2], finished.pk)
    clock.advance(rematch.OFFER_SECONDS)
    state = rematch.state_for(finished, list(Seat.objects.filter(match=finished)), players[3])
    assert state.offer is None
    assert state.lapsed
    # A late acceptance opens a new offer, with only its own acceptance.
    second = rematch.accept(players[3], finished.pk)
    assert second.pk != first.pk
    assert set(second.accepted.all()) == {players[3]}
    for number in (1, 2):
        rematch.accept(players[number], finished.pk)
    assert RematchOffer.objects.get(pk=second.pk).new_match is None
    assert Match.objects.count() == 1


def test_only_seated_people_at_a_finished_match_may_ask(clock: Clock, players):
    outsider = create_player("outsider")
    player = start_match(players, mode="quick")
    with pytest.raises(rematch.RematchRefused):
        rematch.accept(players[1], player.match.pk)
    finished = player.finish_match()
    with pytest.raises(NotAllowed):
        rematch.accept(outsider, finished.pk)


def test_the_panel_offers_accepts_and_sends_everyone_to_the_new_match(finished, players):
    browsers = {n: client_for(players[n]) for n in (1, 2, 3, 4)}
    page = browsers[1].get(f"/match/{finished.pk}/").content.decode()
    assert 'id="rematch"' in page
    assert ">Rematch<" in page
    answer = browsers[1].post(f"/match/{finished.pk}/rematch/", headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert "Waiting for bob, carol, dave" in answer.content.decode()
    page = browsers[2].get(f"/match/{finished.pk}/").content.decode()
    assert "Accept the rematch" in page
    for n in (2, 3):
        browsers[n].post(f"/match/{finished.pk}/rematch/")
    answer = browsers[4].post(f"/match/{finished.pk}/rematch/")
    new = RematchOffer.objects.get().new_match
    assert answer["Location"] == f"/match/{new.pk}/"
    page = browsers[1].get(f"/match/{finished.pk}/").content.decode()
    assert f'data-go="/match/{new.pk}/"' in page


def test_the_page_asks_for_the_panel_once_the_match_is_over(players):
    outsider = create_player("outsider")
    player = start_match(players, mode="quick", private=True)
    url = f"/match/{player.match.pk}/rematch/"
    running = client_for(players[1]).get(url, headers={"HX-Request": "true"})
    assert running.status_code == 200
    assert "rematch-panel" not in running.content.decode()
    assert 'hx-trigger="rematch-check"' in running.content.decode()
    finished = player.finish_match()
    panel = client_for(players[1]).get(url, headers={"HX-Request": "true"}).content.decode()
    assert ">Rematch<" in panel
    guest = client_for(outsider)
    assert guest.get(url).status_code == 404
    # The invite link's token, kept in the guest's session, opens the panel too.
    guest.get(f"/match/{finished.pk}/?invite={finished.invite_token}")
    invited = guest.get(url)
    assert invited.status_code == 200
    assert ">Rematch<" not in invited.content.decode()
