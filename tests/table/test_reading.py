"""The live table's readings: one built on an earlier reading equals one read afresh."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import rules
from games.bots import choose_action
from games.match import services
from games.match.event_log import load_state
from games.match.models import Event, Match
from games.match.versions import read as read_match
from tests.support.drivers import started_match

pytestmark = pytest.mark.django_db


def move(match_id: int, rng: random.Random) -> None:
    """One event: the next deal, or a legal action of the seat to act."""
    reading = read_match(match_id)
    state = reading.state
    if state.phase is rules.Phase.ROUND_OVER or state.turn is None:
        services.deal_next(match_id, reading.seq)
        return
    action = choose_action(state, state.turn, level="easy")
    if rng.random() < 0.3:
        action = rng.choice(rules.legal_actions(state))
    services.submit_as_seat(match_id, state.turn, action, reading.seq)


def test_a_reading_built_on_an_earlier_one_equals_the_log_through_deals(players):
    rng = random.Random(5)
    match_id = started_match(players).match.pk
    earlier = read_match(match_id)
    deals = Match.objects.get(pk=match_id).deal_number
    # Steps of one to four events, across at least two deals.
    while Match.objects.get(pk=match_id).deal_number < deals + 2:
        for _ in range(rng.randint(1, 4)):
            move(match_id, rng)
        later = read_match(match_id, since=earlier)
        stored = Match.objects.get(pk=match_id)
        assert later.seq == stored.seq
        assert later.state == load_state(stored)
        earlier = later


def test_a_reading_built_on_an_earlier_one_reads_only_the_new_events(players):
    rng = random.Random(8)
    match_id = started_match(players).match.pk
    earlier = read_match(match_id)
    move(match_id, rng)
    with CaptureQueriesContext(connection) as queries:
        later = read_match(match_id, since=earlier)
    # The match with its seats, then the events after the earlier reading.
    assert len(queries) == 2
    stored = Match.objects.get(pk=match_id)
    assert earlier.seq < later.seq == stored.seq
    assert later.state == load_state(stored)


def test_a_log_that_does_not_fit_the_earlier_reading_is_read_in_full(players):
    rng = random.Random(3)
    match_id = started_match(players).match.pk
    earlier = read_match(match_id)
    move(match_id, rng)
    # An earlier reading of the same number whose state the next event does
    # not fit (another seat's turn): the reading falls back to the snapshot.
    wrong = rules.apply(earlier.state, choose_action(earlier.state, earlier.state.turn))
    misled = type(earlier)(earlier.match, wrong, earlier.seats)
    later = read_match(match_id, since=misled)
    assert later.state == load_state(Match.objects.get(pk=match_id))
    assert Event.objects.filter(match_id=match_id).count() == later.seq


def test_a_reading_of_a_moving_match_is_never_built_on(players):
    match_id = started_match(players).match.pk
    earlier = read_match(match_id)
    moving = type(earlier)(earlier.match, earlier.state, earlier.seats, consistent=False)
    rng = random.Random(1)
    move(match_id, rng)
    with CaptureQueriesContext(connection) as queries:
        later = read_match(match_id, since=moving)
    # Seats, snapshots, events of the deal and the number again: the full reading.
    assert len(queries) == 4
    assert later.state == load_state(Match.objects.get(pk=match_id))
