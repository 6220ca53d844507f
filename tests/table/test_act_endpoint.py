"""The one action endpoint: good actions are recorded, bad input changes nothing and never 500s."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import rules
from games.match import services
from games.match.models import Event
from games.match.rule_messages import rule_message
from games.table.picture import action_json
from tests.support.drivers import Driver, seat_everyone
from tests.support.log_check import stored

pytestmark = pytest.mark.django_db


def post(client, match_id, action, seq, *, htmx=True, **extra):
    data = {"action": action if isinstance(action, str) else json.dumps(action)}
    if seq is not None:
        data["expected_seq"] = str(seq)
    data.update(extra)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("play:act", args=[match_id]), data, **headers)


@pytest.fixture
def client_of(players):
    def make(number: int) -> Client:
        client = Client()
        client.force_login(players[number])
        return client

    return make


def refused(response, status: int, match_id: int, before) -> str:
    """The refusal's text, after checking its status and that nothing was stored."""
    assert response.status_code == status, response.content.decode()[:500]
    assert stored(match_id) == before, "a refused action changed the match"
    return response.content.decode()


def test_the_seat_to_act_is_recorded_and_gets_the_new_table(running, client_of):
    seat = running.state.turn
    action = rules.legal_actions(running.state)[0]
    response = post(client_of(seat), running.match.pk, action_json(action), running.seq)
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    body = response.content.decode()
    assert f'data-seq="{running.seq + 1}"' in body
    event = Event.objects.get(match=running.match, seq=running.seq + 1)
    assert event.payload == {"seat": seat, **json.loads(action_json(action))}


def test_a_plain_form_post_is_answered_with_a_redirect(running, client_of):
    seat = running.state.turn
    action = action_json(rules.legal_actions(running.state)[0])
    response = post(client_of(seat), running.match.pk, action, running.seq, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("play:table", args=[running.match.pk])


def test_a_json_body_works_as_well(running, client_of):
    seat = running.state.turn
    action = rules.legal_actions(running.state)[0]
    response = client_of(seat).post(
        reverse("play:act", args=[running.match.pk]),
        json.dumps({"action": action, "expected_seq": running.seq}),
        content_type="application/json",
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200


def test_wrong_turn_is_refused(running, client_of):
    other = next(n for n in (1, 2, 3, 4) if n != running.state.turn)
    before = stored(running.match.pk)
    body = refused(
        post(client_of(other), running.match.pk, {"bid": "pass"}, running.seq),
        422,
        running.match.pk,
        before,
    )
    assert "It is not your turn." in body
    assert f'data-seq="{running.seq}"' in body, "the refusal carries the current table"


def test_wrong_phase_is_refused(running, client_of):
    seat = running.state.turn
    before = stored(running.match.pk)
    body = refused(
        post(client_of(seat), running.match.pk, {"play": "AS"}, running.seq),
        422,
        running.match.pk,
        before,
    )
    # The engine's own reason, translated through games.match.rule_messages.
    assert "This is the bidding" in body


def test_illegal_cards_are_refused(running, client_of):
    driver = Driver(running, seed=3)
    driver.until(
        lambda s: (
            s.phase is rules.Phase.PLAYING
            and len(s.deal_actions) > 0
            and bool(rules.view_for(s, None)["trick"])
        )
    )
    state, seq, match_id = driver.state, driver.outcome.seq, running.match.pk
    seat = state.turn
    hand = rules.view_for(state, seat)["hand"]
    legal = {a["play"] for a in rules.legal_actions(state) if "play" in a}
    others = set(rules.view_for(state, seat % 4 + 1)["hand"])
    before = stored(match_id)
    body = refused(
        post(client_of(seat), match_id, {"play": sorted(others)[0]}, seq), 422, match_id, before
    )
    with pytest.raises(rules.CardNotInHand) as not_held:
        rules.apply(state, {"seat": seat, "play": sorted(others)[0]})
    assert rule_message(not_held.value) in body
    unplayable = sorted(set(hand) - legal)
    if unplayable:
        body = refused(
            post(client_of(seat), match_id, {"play": unplayable[0]}, seq), 422, match_id, before
        )
        with pytest.raises(rules.IllegalAction) as unplayable_refusal:
            rules.apply(state, {"seat": seat, "play": unplayable[0]})
        assert rule_message(unplayable_refusal.value) in body
    # The Baloot toggle with a card that is not the trump king or queen.
    plain = sorted(legal)[0]
    response = post(client_of(seat), match_id, {"play": plain}, seq, baloot="on")
    if not any(a.get("baloot") and a["play"] == plain for a in rules.legal_actions(state)):
        refused(response, 422, match_id, before)


def test_another_users_seat_is_refused(running, client_of, make_user):
    seat = running.state.turn
    other = seat % 4 + 1
    before = stored(running.match.pk)
    refused(
        post(client_of(other), running.match.pk, {"seat": seat, "bid": "pass"}, running.seq),
        403,
        running.match.pk,
        before,
    )
    outsider = Client()
    outsider.force_login(make_user("mallory"))
    body = refused(
        post(outsider, running.match.pk, {"bid": "pass"}, running.seq),
        403,
        running.match.pk,
        before,
    )
    assert "You do not have a seat at this table." in body


def test_an_outsider_of_a_private_table_sees_no_table_in_the_refusal(players, make_user):
    match = seat_everyone(players, is_private=True)
    outcome = services.start_match(players[1], match)
    outsider = Client()
    outsider.force_login(make_user("mallory"))
    before = stored(match.pk)
    body = refused(post(outsider, match.pk, {"bid": "pass"}, outcome.seq), 404, match.pk, before)
    assert "data-card" not in body
    assert "data-seq" not in body


@pytest.mark.parametrize(
    ("action", "seq"),
    [
        ("{not json", 1),
        ("[1, 2, 3]", 1),
        ('"bid"', 1),
        ('{"bid": "sun", "colour": "red"}', 1),
        ('{"bid": 3}', 1),
        ('{"bid": "sun", "play": "AS"}', 1),
        ('{"bid": "sun", "auto": true}', 1),
        ('{"declare": "everything"}', 1),
        ('{"bid": "sun"}', "abc"),
        ('{"bid": "sun"}', "-1"),
        ('{"bid": "sun"}', None),
        ("", 1),
        ("[" * 5000, 1),
    ],
)
def test_malformed_input_is_a_400(running, client_of, action, seq):
    seat = running.state.turn
    before = stored(running.match.pk)
    refused(post(client_of(seat), running.match.pk, action, seq), 400, running.match.pk, before)


def test_a_stale_or_repeated_move_number_is_a_409_with_the_fresh_table(running, client_of):
    seat = running.state.turn
    action = action_json(rules.legal_actions(running.state)[0])
    client = client_of(seat)
    assert post(client, running.match.pk, action, running.seq).status_code == 200
    before = stored(running.match.pk)
    body = refused(
        post(client, running.match.pk, action, running.seq), 409, running.match.pk, before
    )
    assert "already been recorded" in body
    assert f'data-seq="{running.seq + 1}"' in body
    nxt = next(n for n in (1, 2, 3, 4) if n != seat)
    refused(
        post(client_of(nxt), running.match.pk, {"bid": "pass"}, running.seq - 1),
        409,
        running.match.pk,
        before,
    )


def test_a_post_without_the_csrf_token_is_refused(running, players):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(players[running.state.turn])
    before = stored(running.match.pk)
    refused(
        post(strict, running.match.pk, {"bid": "pass"}, running.seq), 403, running.match.pk, before
    )


def test_anonymous_and_get_and_unknown_matches(running, client_of):
    before = stored(running.match.pk)
    anonymous = post(Client(), running.match.pk, {"bid": "pass"}, running.seq)
    assert anonymous.status_code == 302
    assert reverse("accounts:login") in anonymous["Location"]
    client = client_of(running.state.turn)
    assert client.get(reverse("play:act", args=[running.match.pk])).status_code == 405
    assert post(client, 987_654, {"bid": "pass"}, 1).status_code == 404
    assert stored(running.match.pk) == before


def test_a_match_that_is_not_running_refuses_actions(players, client_of):
    match = seat_everyone(players)
    before = stored(match.pk)
    body = refused(post(client_of(1), match.pk, {"bid": "pass"}, 0), 409, match.pk, before)
    assert "not being played" in body
