"""Tables that cannot be frozen, hijacked, probed or flooded; housekeeping by the worker."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.match import services
from games.match.errors import NotTheHost, SeatEmpty
from games.match.event_log import load_state
from games.match.models import Event, Match, Seat
from games.worker import due_turns
from games.worker.chores import Chores, clear_sessions, expire_waiting_tables
from tests.support.clock import Clock, deadline_of, reload
from tests.support.drivers import seat_everyone
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db


def turn_of(match: Match) -> int:
    turn = load_state(reload(match)).turn
    assert turn is not None
    return turn


def seat(match: Match, number: int) -> Seat:
    return Seat.objects.get(match=match, number=number)


# --- Clocks that cannot be frozen ---------------------------------------------


def test_posting_im_back_every_second_never_holds_the_clock(start_table, players, clock: Clock):
    outcome = start_table()
    match = outcome.match
    acting = turn_of(match)
    deadline = deadline_of(match)
    browser = client_for(players[acting])
    back = reverse("play:back", args=[match.pk])
    seconds = 0
    while reload(match).seq == outcome.match.seq:
        clock.advance(1)
        seconds += 1
        assert browser.post(back).status_code in (302, 409)
        due_turns.advance_due()
        assert seconds <= 60, "the clock never fired"
    forced = Event.objects.filter(match=match).order_by("-seq").first()
    assert forced is not None
    assert (forced.actor_seat, forced.auto) == (acting, True)
    # On time: the first pass at or after the deadline played it.
    assert clock.now == deadline


def test_stepping_away_and_back_never_extends_the_deadline(start_table, players, clock: Clock):
    outcome = start_table()
    match = outcome.match
    acting = turn_of(match)
    deadline = deadline_of(match)
    services.leave_seat(players[acting], match)
    services.come_back(players[acting], match)
    assert deadline_of(match) <= deadline


def test_three_missed_turns_count_across_im_back(start_table, players, clock: Clock):
    outcome = start_table()
    match = outcome.match
    first = turn_of(match)
    misses = 0
    while misses < 3:
        if turn_of(match) == first and misses:
            # Between two missed turns, the player says they are back.
            services.come_back(players[first], match)
        acting = turn_of(match)
        clock.set(deadline_of(match))
        assert due_turns.advance_due() == 1
        if acting == first:
            misses += 1
    assert seat(match, first).missed_turns == 3
    assert seat(match, first).away


# --- Private matches look missing ----------------------------------------------

MISSING = 10**9
POSTS = {
    "play:act": {"action": json.dumps({"bid": "pass"}), "expected_seq": "1"},
    "play:sit": {"number": "2"},
    "play:leave": {},
    "play:bot": {"number": "2", "op": "add"},
    "play:remove_player": {"number": "2"},
    "play:start": {},
    "play:back": {},
}


@pytest.mark.parametrize("name", sorted(POSTS))
@pytest.mark.parametrize("htmx", [False, True])
def test_a_private_match_is_answered_as_a_missing_one_on_every_method(players, name, htmx):
    private = services.create_match(players[1], is_private=True)
    stranger = client_for(create_player("stranger"))
    headers = {"HX-Request": "true"} if htmx else {}
    answers = []
    for pk in (private.pk, MISSING):
        response = stranger.post(reverse(name, args=[pk]), POSTS[name], headers=headers)
        answers.append((response.status_code, response.content))
    assert answers[0] == answers[1]
    assert answers[0][0] == 404
    assert stranger.get(reverse("play:table", args=[private.pk])).status_code == 404


# --- Who runs a table -----------------------------------------------------------


def test_a_seated_guest_cannot_fill_the_table_with_bots_or_start_it(players):
    match = services.create_match(players[1])
    services.take_seat(players[2], match, 2)
    with pytest.raises(NotTheHost):
        services.add_bot(players[2], match, 3)
    services.add_bot(players[1], match, 3)
    services.add_bot(players[1], match, 4)
    with pytest.raises(NotTheHost):
        services.start_match(players[2], match)
    guest = client_for(players[2])
    assert guest.post(reverse("play:start", args=[match.pk])).status_code == 403
    assert reload(match).status == Match.Status.WAITING
    services.start_match(players[1], match)


def test_once_the_host_has_left_the_seated_players_run_the_table(players):
    match = services.create_match(players[1])
    services.take_seat(players[2], match, 2)
    services.leave_seat(players[1], match)
    services.add_bot(players[2], match, 1)


def test_the_host_can_free_a_seat_from_a_squatter(players):
    match = services.create_match(players[1])
    services.take_seat(players[2], match, 2)
    services.take_seat(players[3], match, 3)
    with pytest.raises(NotTheHost):
        services.remove_player(players[3], match, 2)
    host = client_for(players[1])
    response = host.post(reverse("play:remove_player", args=[match.pk]), {"number": "2"})
    assert response.status_code == 302
    assert seat(match, 2).user is None
    with pytest.raises(SeatEmpty):
        services.remove_player(players[1], match, 1)


# --- Housekeeping ---------------------------------------------------------------


def test_waiting_tables_expire_but_started_ones_stay(players, settings):
    settings.WAITING_TABLE_EXPIRY_SECONDS = 3600
    old = services.create_match(players[1])
    started = seat_everyone(players)
    services.start_match(players[1], started)
    an_hour_ago = timezone.now() - timedelta(seconds=3601)
    Match.objects.filter(pk__in=[old.pk, started.pk]).update(created_at=an_hour_ago)
    fresh = services.create_match(players[2])
    assert expire_waiting_tables() == 1
    assert not Match.objects.filter(pk=old.pk).exists()
    assert Match.objects.filter(pk__in=[started.pk, fresh.pk]).count() == 2


def test_the_worker_clears_expired_sessions(players):
    Session.objects.create(
        session_key="x" * 32, session_data="", expire_date=timezone.now() - timedelta(days=1)
    )
    Session.objects.create(
        session_key="y" * 32, session_data="", expire_date=timezone.now() + timedelta(days=1)
    )
    clear_sessions()
    assert list(Session.objects.values_list("session_key", flat=True)) == ["y" * 32]
    chores = Chores()
    chores.next_sessions = 0
    Session.objects.create(
        session_key="z" * 32, session_data="", expire_date=timezone.now() - timedelta(days=1)
    )
    chores.run_due()
    assert not Session.objects.filter(session_key="z" * 32).exists()


# --- Limits and bad input -------------------------------------------------------


def test_tables_per_player_are_limited(players, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "TABLES": "2/h"}
    browser = client_for(players[1], "ar")
    form = {"mode": "classic", "play_timer": "15"}
    codes = [browser.post(reverse("play:new_table"), form).status_code for _ in range(3)]
    assert codes == [302, 302, 429]
    assert Match.objects.filter(creator=players[1]).count() == 2


def test_bot_matches_per_player_are_limited(players, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "BOT_MATCHES": "1/h"}
    browser = client_for(players[1])
    codes = [browser.post(reverse("play:play_now")).status_code for _ in range(2)]
    assert codes == [302, 429]
    refused = browser.post(reverse("play:play_now"))
    assert "too often" in refused.content.decode()


def test_step_away_toggles_are_limited(start_table, players, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "AWAY": "3/h"}
    outcome = start_table()
    browser = client_for(players[1])
    urls = [
        reverse("play:leave", args=[outcome.match.pk]),
        reverse("play:back", args=[outcome.match.pk]),
    ]
    codes = [browser.post(urls[n % 2]).status_code for n in range(4)]
    assert codes[3] == 429


def test_a_multipart_post_to_act_is_read_not_a_server_error(start_table, players):
    outcome = start_table()
    acting = turn_of(outcome.match)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(players[acting])
    browser.get(reverse("play:table", args=[outcome.match.pk]))
    token = browser.cookies["csrftoken"].value
    response = browser.post(
        reverse("play:act", args=[outcome.match.pk]),
        {
            "csrfmiddlewaretoken": token,
            "action": json.dumps({"bid": "pass"}),
            "expected_seq": str(reload(outcome.match).seq),
        },
    )
    assert response.status_code == 302
    assert reload(outcome.match).seq == outcome.match.seq + 1
