"""The table page: seats, spectators, private tables, coming back, the same view after restart."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import rules
from games.match import services
from games.match.models import DealSnapshot, Match, Seat
from games.match.versions import read as read_match
from games.table.context import viewer_of
from games.table.live import draw
from tests.support.drivers import Driver, seat_everyone
from tests.table.live import cards_in

pytestmark = pytest.mark.django_db

# What differs between two renderings of one position: the form token, the
# milliseconds left on the clock, and so the picture's digest.
VOLATILE = re.compile(
    r'name="csrfmiddlewaretoken" value="[^"]*"|data-ms="\d+"[^>]*>\d+<|data-view="[0-9a-f]+"'
    r'|data-ring-ms="\d+"[^>]*><span class="ring-seconds">\d+<'
)


def page_of(user, match_id: int, **headers) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("play:table", args=[match_id]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def all_hands(state: rules.State) -> set[str]:
    return set().union(*(set(rules.view_for(state, s)["hand"]) for s in (1, 2, 3, 4)))


def test_a_seat_sees_its_hand_sorted_and_only_legal_cards_clickable(running, players):
    driver = Driver(running, seed=8)
    driver.until(lambda s: s.phase is rules.Phase.PLAYING)
    seat = driver.state.turn
    html = page_of(players[seat], running.match.pk)
    hand = rules.view_for(driver.state, seat)["hand"]
    shown = re.findall(r'<button[^>]*class="card[^"]*" data-card="(..)"', html)
    assert sorted(shown) == sorted(hand)
    suits = [card[1] for card in shown]
    assert suits == sorted(suits, key="SHCD".index), "suits are grouped"
    legal = {a["play"] for a in rules.legal_actions(driver.state) if "play" in a}
    playable = set(re.findall(r'class="card playable[^"]*" data-card="(..)"', html))
    assert playable == legal
    disabled = set(re.findall(r'data-card="(..)" disabled', html))
    assert disabled == set(hand) - legal
    keys = re.findall(r'data-key="(\d)"', html)
    assert keys == [str(n) for n in range(1, len(legal) + 1)], "number keys 1..n"
    assert re.search(r'class="seat seat-bottom[^"]* is-me"', html)


def test_spectators_watch_a_running_table_without_any_hand(running, make_user):
    watcher = make_user("wendy")
    Driver(running, seed=4).until(lambda s: len(s.deal_actions) >= 6)
    html = page_of(watcher, running.match.pk)
    state = services.load_state(Match.objects.get(pk=running.match.pk))
    assert 'class="hand"' not in html
    assert 'name="action"' not in html
    assert not cards_in(html) & all_hands(state) - _public(state)
    assert "seat-bottom" in html
    for name in ("alice", "bob", "carol", "dave"):
        assert name in html


def _public(state: rules.State) -> set[str]:
    """Cards in hands that a spectator may still see: revealed project cards (D18)."""
    view = rules.view_for(state, None)
    return {
        card
        for projects in view["declarations"].values()
        for project in projects or ()
        for card in project["cards"] or ()
    }


def test_an_htmx_request_gets_the_region_alone_and_varies_on_it(running, players):
    client = Client()
    client.force_login(players[1])
    url = reverse("play:table", args=[running.match.pk])
    full = client.get(url)
    part = client.get(url, HTTP_HX_REQUEST="true")
    assert "HX-Request" in full["Vary"]
    assert "HX-Request" in part["Vary"]
    assert b"<html" in full.content
    assert b"<html" not in part.content
    assert part.content.decode().lstrip().startswith('<section id="table"')
    assert b"hx-ws-2" in full.content, "the WebSocket extension is served from our static files"
    assert b"https://" not in full.content


def test_a_private_table_is_hidden_without_its_invite(players, make_user):
    match = services.create_match(players[1], is_private=True)
    outsider = Client()
    outsider.force_login(make_user("erin"))
    url = reverse("play:table", args=[match.pk])
    assert outsider.get(url).status_code == 404
    assert outsider.get(url, {"invite": "nope"}, follow=True).status_code == 404
    invited = outsider.get(url, {"invite": match.invite_token}, follow=True)
    assert invited.status_code == 200
    assert b"Sit here" in invited.content
    # The session holds the token now: the page shows it nowhere.
    assert match.invite_token.encode() not in invited.content
    creator_page = page_of(players[1], match.pk)
    assert f"?invite={match.invite_token}" in creator_page, "members see the invite link"


def test_the_view_is_rebuilt_from_the_log_alone(running, players):
    driver = Driver(running, seed=6)
    for _ in range(25):
        driver.step()
    user = players[2]
    version = read_match(running.match.pk)
    before = VOLATILE.sub("", draw(version, viewer_of(version, user, language="en")).whole())
    # Snapshots are a cache of the log: a server that lost them shows the same.
    DealSnapshot.objects.filter(match=running.match).delete()
    version = read_match(running.match.pk)
    after = VOLATILE.sub("", draw(version, viewer_of(version, user, language="en")).whole())
    assert before == after


def test_stepping_away_and_coming_back(running, players):
    client = Client()
    client.force_login(players[3])
    leave = client.post(reverse("play:leave", args=[running.match.pk]), HTTP_HX_REQUEST="true")
    assert leave.status_code == 200
    assert "I&#x27;m back" in leave.content.decode() or "I'm back" in leave.content.decode()
    assert Seat.objects.get(match=running.match, number=3).away
    assert "Away: a bot plays" in page_of(players[1], running.match.pk)
    back = client.post(reverse("play:back", args=[running.match.pk]))
    assert back.status_code == 302
    assert not Seat.objects.get(match=running.match, number=3).away


def test_the_end_of_the_match_shows_the_winner_and_the_sheet(players):
    outcome = services.start_match(players[1], seat_everyone(players, mode="quick"))
    driver = Driver(outcome, seed=9)
    driver.until(lambda s: s.phase is rules.Phase.MATCH_OVER, limit=5000)
    winner = driver.state.winner
    seat = 1 if winner == "A" else 2
    html = page_of(players[seat], outcome.match.pk)
    assert "You won the match!" in html
    assert "match-over" in html
    rows = re.findall(r"<tr>\s*<td>(\d+)</td>", html)
    assert rows == [str(n) for n in range(1, len(driver.state.results) + 1)]
    loser = page_of(players[seat % 4 + 1], outcome.match.pk)
    assert "The other team won the match." in loser
    assert "Result of deal" in loser
