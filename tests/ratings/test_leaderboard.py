"""The leaderboard: established players only, best first, a page at a time, the viewer's rank."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.ratings import leaderboard
from games.ratings.models import PROVISIONAL_MATCHES
from tests.ratings.boards import rated_player
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

URL = reverse("ratings:leaderboard")


def names_on(body: str) -> list[str]:
    return re.findall(r'<td class="player-name"><a [^>]*>([^<]+)</a>', body)


def test_provisional_players_are_hidden():
    rated_player("settled", 1400, PROVISIONAL_MATCHES)
    rated_player("newcomer", 1900, PROVISIONAL_MATCHES - 1)
    body = client_for(None).get(URL).content.decode()
    assert names_on(body) == ["settled"]


def test_the_board_is_best_first_and_paginated():
    count = leaderboard.PAGE_SIZE + 7
    for n in range(count):
        rated_player(f"p{n:03d}", 1000 + n, 20)
    first = client_for(None).get(URL).content.decode()
    assert names_on(first) == [
        f"p{n:03d}" for n in range(count - 1, count - 1 - leaderboard.PAGE_SIZE, -1)
    ]
    second = client_for(None).get(URL, {"page": 2}).content.decode()
    assert names_on(second) == [f"p{n:03d}" for n in range(6, -1, -1)]
    ranks = re.findall(r'<td class="num">(\d+)</td>\s*<td class="player-name">', second)
    assert ranks[0] == str(leaderboard.PAGE_SIZE + 1)
    assert "Page 2 of 2" in second


def test_ties_keep_a_stable_order():
    for name in ("tie-a", "tie-b", "tie-c"):
        rated_player(name, 1500, 12)
    assert names_on(client_for(None).get(URL).content.decode()) == ["tie-a", "tie-b", "tie-c"]


def test_your_own_rank_is_shown_and_your_row_highlighted():
    players = [rated_player(f"p{n:03d}", 2000 - n, 15) for n in range(leaderboard.PAGE_SIZE + 10)]
    me = players[leaderboard.PAGE_SIZE + 3]
    client = client_for(me)
    body = client.get(URL).content.decode()
    assert f"Your rank: {leaderboard.PAGE_SIZE + 4}" in body
    assert "Show my place" in body
    assert 'class="mine"' not in body
    mine = client.get(URL, {"page": "mine"}).content.decode()
    assert re.search(
        rf'<tr class="mine" aria-current="true">\s*'
        rf'<td class="num">{leaderboard.PAGE_SIZE + 4}</td>',
        mine,
    )
    assert mine.count('class="mine"') == 1


def test_a_provisional_viewer_is_told_why_they_are_missing():
    me = rated_player("fresh", 1800, 3)
    body = client_for(me).get(URL).content.decode()
    assert "Your rank" not in body
    assert "provisional" in body


def test_this_month_shows_only_players_rated_this_month():
    now = timezone.now()
    rated_player("active", 1300, 30, when=now)
    rated_player("idle", 1700, 30, when=leaderboard.month_start(now) - timedelta(days=2))
    body = client_for(None).get(URL, {"period": "month"}).content.decode()
    assert names_on(body) == ["active"]
    assert names_on(client_for(None).get(URL).content.decode()) == ["idle", "active"]


def test_each_mode_has_its_own_board():
    rated_player("classic-player", 1500, 12, mode="classic")
    rated_player("quick-player", 1500, 12, mode="quick")
    assert names_on(client_for(None).get(URL, {"mode": "quick"}).content.decode()) == [
        "quick-player"
    ]
    assert names_on(client_for(None).get(URL, {"mode": "nonsense"}).content.decode()) == [
        "classic-player"
    ]


def test_a_page_costs_a_fixed_number_of_queries(django_assert_max_num_queries):
    players = [rated_player(f"p{n:03d}", 1500 + n, 12) for n in range(60)]
    client = client_for(players[5])
    with django_assert_max_num_queries(8):
        assert client.get(URL).status_code == 200
