"""Every service entry point refuses bad input with a clear error and changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from games import rules
from games.match import errors, services
from games.match.models import Match
from tests.support.drivers import Table

pytestmark = pytest.mark.django_db


# --- create_match -------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"mode": "blitz"}, errors.InvalidSetting),
        ({"play_timer": 5}, errors.InvalidSetting),
        ({"seat": 5}, errors.InvalidSeat),
        ({"seat": True}, errors.InvalidSeat),
    ],
)
def test_create_match_refuses_bad_settings(players, options, error):
    with pytest.raises(error):
        services.create_match(players[1], **options)
    assert not Match.objects.exists()


def test_create_match_needs_a_logged_in_user(db):
    with pytest.raises(errors.NotAllowed, match="log in"):
        services.create_match(AnonymousUser())
    assert not Match.objects.exists()


# --- seats --------------------------------------------------------------------


def test_unknown_match_is_reported_by_every_entry_point(players):
    user = players[1]
    calls = [
        lambda: services.take_seat(user, 999, 1),
        lambda: services.leave_seat(user, 999),
        lambda: services.come_back(user, 999),
        lambda: services.add_bot(user, 999, 2),
        lambda: services.remove_bot(user, 999, 2),
        lambda: services.start_match(user, 999),
        lambda: services.submit(user, 999, {"bid": "pass"}, 0),
        lambda: services.submit_as_seat(999, 1, {"bid": "pass"}, 0),
        lambda: services.abort_match(999),
        lambda: services.submit(user, "1", {"bid": "pass"}, 0),
    ]
    for call in calls:
        with pytest.raises(errors.MatchNotFound, match="no such match"):
            call()


def test_seat_taken(full_table, make_user, unchanged):
    newcomer = make_user("erin")
    with unchanged(full_table), pytest.raises(errors.SeatTaken, match="Seat 2 is already taken"):
        services.take_seat(newcomer, full_table, 2)


def test_seat_numbers_outside_one_to_four(players, make_user, unchanged):
    match = services.create_match(players[1])
    for number in (0, 5, "2", None):
        with unchanged(match), pytest.raises(errors.InvalidSeat):
            services.take_seat(players[2], match, number)


def test_one_seat_per_player(players, unchanged):
    match = services.create_match(players[1])
    with unchanged(match), pytest.raises(errors.AlreadySeated, match="in seat 1"):
        services.take_seat(players[1], match, 2)


def test_private_table_without_its_invite(players, unchanged):
    match = services.create_match(players[1], is_private=True)
    for token in ("", "wrong-token"):
        with unchanged(match), pytest.raises(errors.InviteRequired, match="invite link"):
            services.take_seat(players[2], match, 2, invite_token=token)


def test_seats_cannot_change_once_started(started, make_user, players, unchanged):
    match = started.match
    newcomer = make_user("erin")
    with unchanged(match):
        with pytest.raises(errors.MatchNotWaiting):
            services.take_seat(newcomer, match, 1)
        with pytest.raises(errors.MatchNotWaiting):
            services.add_bot(players[1], match, 2)
        with pytest.raises(errors.MatchNotWaiting):
            services.remove_bot(players[1], match, 2)
        with pytest.raises(errors.MatchNotWaiting):
            services.start_match(players[1], match)


def test_leaving_a_table_one_does_not_sit_at(players, make_user, unchanged):
    match = services.create_match(players[1])
    with unchanged(match), pytest.raises(errors.NotYourSeat, match="do not have a seat"):
        services.leave_seat(make_user("erin"), match)


def test_leaving_or_coming_back_after_the_end(started, players, unchanged):
    match = services.abort_match(started.match)
    with unchanged(match):
        with pytest.raises(errors.MatchOver):
            services.leave_seat(players[1], match)
        with pytest.raises(errors.MatchNotRunning):
            services.come_back(players[1], match)


def test_bots_only_by_the_tables_players(players, make_user, unchanged):
    match = services.create_match(players[1])
    stranger = make_user("erin")
    with unchanged(match), pytest.raises(errors.NotAllowed):
        services.add_bot(stranger, match, 2)
    services.add_bot(players[1], match, 2)
    with unchanged(match), pytest.raises(errors.NotAllowed):
        services.remove_bot(stranger, match, 2)


def test_bot_in_a_taken_seat_or_no_bot_to_remove(players, unchanged):
    match = services.create_match(players[1])
    with unchanged(match):
        with pytest.raises(errors.SeatTaken):
            services.add_bot(players[1], match, 1)
        with pytest.raises(errors.NotABot, match="no bot in seat 3"):
            services.remove_bot(players[1], match, 3)


def test_start_needs_four_filled_seats_and_a_player(players, make_user, unchanged):
    match = services.create_match(players[1])
    services.add_bot(players[1], match, 2)
    with unchanged(match), pytest.raises(errors.TableNotFull):
        services.start_match(players[1], match)
    services.add_bot(players[1], match, 3)
    services.add_bot(players[1], match, 4)
    with unchanged(match), pytest.raises(errors.NotAllowed):
        services.start_match(make_user("erin"), match)


def test_abort_twice(started, unchanged):
    match = services.abort_match(started.match)
    with unchanged(match), pytest.raises(errors.MatchOver):
        services.abort_match(match)


# --- submit -------------------------------------------------------------------


def test_submit_before_the_start(full_table, players, unchanged):
    with unchanged(full_table), pytest.raises(errors.MatchNotRunning, match="Waiting"):
        services.submit(players[1], full_table, {"bid": "pass"}, 0)


def test_submit_needs_a_logged_in_player(table: Table, unchanged):
    match = table.outcome.match
    with unchanged(match), pytest.raises(errors.NotAllowed):
        services.submit(AnonymousUser(), match, {"bid": "pass"}, table.outcome.seq)


def test_not_your_seat(table: Table, make_user, unchanged):
    match = table.outcome.match
    seat = table.turn
    other = seat % 4 + 1
    with unchanged(match):
        with pytest.raises(errors.NotYourSeat, match="do not have a seat"):
            services.submit(make_user("erin"), match, {"bid": "pass"}, table.outcome.seq)
        # A player may not act in the name of the seat whose turn it is.
        with pytest.raises(errors.NotYourSeat, match="your own seat"):
            services.submit(
                table.players[other], match, {"seat": seat, "bid": "pass"}, table.outcome.seq
            )


def test_not_your_turn(table: Table, unchanged):
    match = table.outcome.match
    waiting = table.turn % 4 + 1
    with unchanged(match), pytest.raises(errors.NotYourTurn, match="not your turn"):
        services.submit(table.players[waiting], match, {"bid": "pass"}, table.outcome.seq)


def test_illegal_action_carries_the_engines_message(table: Table, unchanged):
    match = table.outcome.match
    seat = table.turn
    # D8: Ashkal is for P3 and P4; the first seat to bid is P1.
    action = {"seat": seat, "bid": "ashkal"}
    with pytest.raises(rules.IllegalAction) as engine:
        rules.apply(table.state, action)
    with unchanged(match), pytest.raises(errors.IllegalMove) as refused:
        services.submit(table.players[seat], match, action, table.outcome.seq)
    assert str(refused.value) == str(engine.value)
    assert refused.value.engine_code == engine.value.code


def test_card_not_in_hand(table: Table, unchanged):
    table.act({"bid": "sun"})
    while table.state.phase is rules.Phase.DECLARING:
        table.act({"declare": []})
    seat = table.turn
    hand = set(rules.view_for(table.state, seat)["hand"])
    all_cards = rules.random_deck(random.Random(0))
    foreign = next(card for card in all_cards if card not in hand)
    with unchanged(table.outcome.match), pytest.raises(errors.IllegalMove) as refused:
        services.submit(
            table.players[seat], table.outcome.match, {"play": foreign}, table.outcome.seq
        )
    assert refused.value.engine_code == "card_not_in_hand"


def test_wrong_phase(table: Table, unchanged):
    seat = table.turn
    with unchanged(table.outcome.match), pytest.raises(errors.WrongPhase, match="bidding"):
        services.submit(table.players[seat], table.outcome.match, {"play": "AS"}, table.outcome.seq)


MALFORMED: list[Any] = [
    None,
    "bid pass",
    ["bid", "pass"],
    {},
    {"seat": 1},
    {"bid": "pass", "double": "pass"},
    {"bid": "pass", "colour": "red"},
    {"bid": "pass", 7: "x"},
    {"bid": 3},
    {"bid": "pass", "seat": "1"},
    {"bid": "pass", "seat": True},
    {"redeal": "yes"},
    {"sawa": 1},
    {"double": "double", "lock": "yes"},
    {"play": ["AS"]},
    {"declare": "sira"},
    {"declare": [{"project": "sira"}]},
    {"declare": [{"project": "sira", "cards": "7S8S9S"}]},
    {"declare": [{"project": "sira", "cards": [7, 8, 9]}]},
    {"declare": [{"project": "sira", "cards": ["7S"], "extra": 1}]},
    {"declare": [{"project": "sira", "cards": ["7S"]}] * 9},
    {"bid": "pass", "auto": True},
    {"bid": "pass", "at": "2026-01-01T00:00:00Z"},
    {"bid": "maybe"},
    {"play": "ZZ"},
]


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_malformed_payloads(table: Table, unchanged, action):
    seat = table.turn
    with unchanged(table.outcome.match), pytest.raises(errors.MalformedAction):
        services.submit(table.players[seat], table.outcome.match, action, table.outcome.seq)


@pytest.mark.parametrize("expected_seq", [None, "1", 1.0, True, -1])
def test_expected_seq_must_be_a_move_number(table: Table, unchanged, expected_seq):
    seat = table.turn
    with unchanged(table.outcome.match), pytest.raises(errors.MalformedAction):
        services.submit(table.players[seat], table.outcome.match, {"bid": "pass"}, expected_seq)


def test_stale_expected_seq(table: Table, unchanged):
    first = table.turn
    seen = table.outcome.seq
    table.act({"bid": "pass"})
    second = table.turn
    with unchanged(table.outcome.match):
        with pytest.raises(errors.StaleSequence, match="moved on") as stale:
            services.submit(table.players[second], table.outcome.match, {"bid": "pass"}, seen)
        assert stale.value.params == {"expected": seen, "current": seen + 1}
        # A move number from the future is just as stale.
        with pytest.raises(errors.StaleSequence):
            services.submit(table.players[second], table.outcome.match, {"bid": "pass"}, seen + 5)
        # The first player's different second thought, sent against the old number.
        with pytest.raises(errors.StaleSequence):
            services.submit(table.players[first], table.outcome.match, {"bid": "sun"}, seen)


def test_repeated_action_is_a_duplicate(table: Table, unchanged):
    seat = table.turn
    seen = table.outcome.seq
    table.act({"bid": "pass"})
    with unchanged(table.outcome.match), pytest.raises(errors.DuplicateAction):
        services.submit(table.players[seat], table.outcome.match, {"bid": "pass"}, seen)


def test_submit_as_seat_refusals(table: Table, unchanged):
    match = table.outcome.match
    seat = table.turn
    with unchanged(match):
        with pytest.raises(errors.InvalidSeat):
            services.submit_as_seat(match, 0, {"bid": "pass"}, table.outcome.seq)
        with pytest.raises(errors.NotYourSeat):
            services.submit_as_seat(
                match, seat, {"seat": seat % 4 + 1, "bid": "pass"}, table.outcome.seq
            )
        # D17: a timer may only force the forced choice.
        with pytest.raises(errors.IllegalMove) as refused:
            services.submit_as_seat(match, seat, {"bid": "sun"}, table.outcome.seq, auto=True)
        assert refused.value.engine_code == "invalid_auto"
