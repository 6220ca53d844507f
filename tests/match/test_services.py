"""The service layer on its happy paths; every call is followed by the replay check."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import rules
from games.match import services
from games.match.broadcast import match_group
from games.match.errors import ServiceError
from games.match.models import DealSnapshot, Event, Match, Seat
from games.rules.cards import CARD_STR, cards_of
from tests.support.drivers import Table

pytestmark = pytest.mark.django_db


def to_playing(table: Table) -> None:
    """Take the current deal to card play: the first seat buys Sun, nobody declares."""
    assert table.state.phase is rules.Phase.BIDDING
    table.act({"bid": "sun"})
    while table.state.phase is rules.Phase.DECLARING:
        table.act({"declare": []})
    assert table.state.phase is rules.Phase.PLAYING


def test_create_match_sits_the_creator_and_leaves_three_empty_seats(players, check_log):
    match = services.create_match(players[1], mode="quick", play_timer=30, is_private=True, seat=3)
    check_log(match)
    seats = {s.number: s for s in match.seats.all()}
    assert seats[3].user == players[1]
    assert all(seats[n].is_empty for n in (1, 2, 4))
    assert (match.status, match.mode, match.play_timer, match.is_private) == (
        "waiting",
        "quick",
        30,
        True,
    )
    # D27: Quick starts both teams at 52.
    assert (match.score_a, match.score_b) == (52, 52)
    assert len(match.invite_token) >= 20


def test_seats_bots_and_leaving_before_the_start(players, check_log):
    match = services.create_match(players[1])
    services.take_seat(players[2], match, 2)
    check_log(match)
    services.add_bot(players[1], match, 4)
    check_log(match)
    assert Seat.objects.get(match=match, number=4).is_bot
    services.remove_bot(players[1], match, 4)
    check_log(match)
    assert Seat.objects.get(match=match, number=4).is_empty
    services.leave_seat(players[2], match)
    check_log(match)
    assert Seat.objects.get(match=match, number=2).is_empty


def test_private_table_takes_invited_players_only(players, check_log):
    match = services.create_match(players[1], is_private=True)
    services.take_seat(players[2], match, 2, invite_token=match.invite_token)
    check_log(match)
    assert Seat.objects.get(match=match, number=2).user == players[2]


def test_start_deals_the_first_hand_from_a_fresh_seed(started, players, check_log):
    match = started.match
    assert match.status == Match.Status.PLAYING
    assert match.started_at is not None
    assert match.first_dealer in (1, 2, 3, 4)
    assert started.state.dealer == match.first_dealer
    assert started.state.phase is rules.Phase.BIDDING
    (event,) = Event.objects.filter(match=match)
    deal = event.payload["deal"]
    assert (event.seq, event.kind, event.actor_seat, event.auto) == (1, "deal", None, False)
    assert len(deal["seed"]) == 64
    assert deal["deck"] == rules.deck_from_seed(deal["seed"])
    assert deal["commitment"] == rules.commitment(deal["seed"])
    assert sorted(deal["deck"]) == sorted(rules.random_deck(random.Random(0)))
    assert DealSnapshot.objects.filter(match=match, seq=1).exists()


def test_submit_appends_exactly_one_event(table: Table):
    before = table.outcome.seq
    table.act({"bid": "pass"})
    assert table.outcome.seq == before + 1
    event = Event.objects.get(match=table.outcome.match, seq=before + 1)
    assert event.kind == "action"
    assert event.payload == {"seat": event.actor_seat, "bid": "pass"}
    assert event.auto is False


def test_the_seat_in_an_action_may_be_given_when_it_is_ones_own(table: Table):
    seat = table.turn
    table.act({"seat": seat, "bid": "pass"})
    assert Event.objects.get(match=table.outcome.match, seq=2).payload == {
        "seat": seat,
        "bid": "pass",
    }


def test_a_finished_deal_is_followed_by_the_next_deal_with_a_new_seed(table: Table):
    first_dealer = table.state.dealer
    table.finish_deal()
    match = table.outcome.match
    deals = list(Event.objects.filter(match=match, kind="deal").order_by("seq"))
    assert len(deals) == 2
    assert deals[0].payload["deal"]["seed"] != deals[1].payload["deal"]["seed"]
    assert table.state.phase is rules.Phase.BIDDING
    assert len(table.state.results) == 1
    # D6/D7: the deal moves on, except after a zero-point redeal.
    expected = first_dealer if table.state.results[0].outcome == "redeal" else first_dealer % 4 + 1
    assert table.state.dealer == expected
    assert DealSnapshot.objects.filter(match=match).count() == 2


def test_a_whole_match_reaches_a_winner_and_the_projection_follows(table: Table):
    while table.state.phase is not rules.Phase.MATCH_OVER:
        table.finish_deal()
    match = Match.objects.get(pk=table.outcome.match.pk)
    assert match.status == Match.Status.FINISHED
    assert match.winner in ("A", "B")
    assert match.finished_at is not None
    assert (
        max(match.score_a, match.score_b) >= 152
        or table.state.results[-1].to_json()["contract"]["gahwa"]
    )
    # No deal is dealt after the winning one.
    assert Event.objects.filter(match=match).latest("seq").kind == "action"


def test_bots_and_timers_act_through_submit_as_seat(table: Table, check_log):
    seat = table.turn
    forced = rules.forced_action(table.state)
    outcome = services.submit_as_seat(table.outcome.match, seat, forced, table.outcome.seq)
    check_log(outcome.match, outcome.state)
    event = Event.objects.get(match=outcome.match, seq=outcome.seq)
    assert event.auto is True
    assert event.payload["auto"] is True
    assert event.actor_seat == seat

    seat = outcome.state.turn or 0
    outcome = services.submit_as_seat(outcome.match, seat, {"bid": "pass"}, outcome.seq)
    check_log(outcome.match, outcome.state)
    assert Event.objects.get(match=outcome.match, seq=outcome.seq).auto is False


def test_acting_again_brings_an_away_player_back(table: Table):
    seat = table.turn
    services.leave_seat(table.players[seat], table.outcome.match)
    assert Seat.objects.get(match=table.outcome.match, number=seat).away
    table.act({"bid": "pass"})
    assert not Seat.objects.get(match=table.outcome.match, number=seat).away


def test_come_back_clears_the_away_flag_but_not_the_missed_turns(table: Table, check_log):
    player = table.players[1]
    services.leave_seat(player, table.outcome.match)
    Seat.objects.filter(match=table.outcome.match, number=1).update(missed_turns=3)
    seat = services.come_back(player, table.outcome.match)
    check_log(table.outcome.match)
    assert (seat.away, seat.missed_turns) == (False, 3)


def test_abort_stops_a_running_match(table: Table, check_log):
    match = services.abort_match(table.outcome.match.pk)
    check_log(match)
    assert match.status == Match.Status.ABORTED
    assert match.finished_at is not None
    last = Event.objects.filter(match=match).order_by("seq").last()
    assert last is not None
    assert last.kind == Event.Kind.ABORT, "the abort is recorded in the log"
    assert last.seq == match.seq


def test_an_aborted_match_refuses_every_action(table: Table):
    services.abort_match(table.outcome.match.pk)
    before = Event.objects.filter(match=table.outcome.match).count()
    with pytest.raises(ServiceError):
        table.act({"bid": "sun"})
    assert Event.objects.filter(match=table.outcome.match).count() == before


def test_events_announce_themselves_on_commit_without_hidden_cards(
    table: Table, django_capture_on_commit_callbacks: Any
):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(match_group(table.outcome.match.pk), channel)
    hands = [cards_of(hand) for hand in table.state.hands]
    revisions = []
    for seq in (2, 3):
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            table.act({"bid": "pass"})
        assert len(callbacks) == 1
        message = async_to_sync(layer.receive)(channel)
        # "Match M is at event N", and a revision naming this change: nothing else.
        assert set(message) == {"type", "match", "seq", "rev"}
        assert message["type"] == "match.event"
        assert message["match"] == table.outcome.match.pk
        assert message["seq"] == seq
        # The revision is a random token, not drawn from the state: it tells
        # one change from another at the same event number and says nothing
        # about the cards.
        assert re.fullmatch(r"[0-9a-f]{12}", message["rev"])
        revisions.append(message["rev"])
        text = json.dumps(message)
        assert json.loads(text) == message
        assert not any(CARD_STR[card] in text for hand in hands for card in hand)
    assert revisions[0] != revisions[1]


def test_an_action_that_ends_a_deal_announces_the_new_deal_once(
    table: Table, django_capture_on_commit_callbacks: Any
):
    while True:
        legal = rules.legal_actions(table.state)
        before = len(table.state.results)
        after = [rules.apply(table.state, a) for a in legal]
        if any(len(s.results) > before for s in after):
            break
        table.act()
    ending = next(a for a, s in zip(legal, after, strict=True) if len(s.results) > before)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        outcome = table.act(ending)
    assert len(callbacks) == 1
    assert Event.objects.get(match=outcome.match, seq=outcome.seq).kind == "deal"


def test_load_state_replays_past_an_unreadable_snapshot(table: Table):
    table.finish_deal()
    match = table.outcome.match
    DealSnapshot.objects.filter(match=match).update(state={"not": "a snapshot"})
    assert services.load_state(match) == table.state
