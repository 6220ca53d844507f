"""A public profile shows nothing of a private match to anyone who may not see that match."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.match.models import Match
from games.ratings.models import PlayerStats
from games.ratings.profile import profile_of
from games.ratings.rebuild import problems, rebuild, stats_from_log
from tests.support.drivers import start_match
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db


def profile_page(viewer: User | None, player: User) -> str:
    """The profile as ``viewer`` sees it, its per-request CSRF tokens left out."""
    url = reverse("ratings:profile", args=[player.get_username()])
    body = client_for(viewer).get(url).content.decode()
    body = re.sub(r'CSRFToken": "[^"]*"', "", body)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", body)


def figures(player: User, viewer: object) -> dict[str, str]:
    """The profile's statistics, total column, by label."""
    return {line.label: line.values[-1] for line in profile_of(player, viewer).stats}


def test_strangers_see_no_private_match_on_a_profile(players: dict[int, User]):
    finished = start_match(players, mode="quick", private=True, seed=3).finish_match()
    running = start_match(players, mode="classic", private=True, seed=4)
    running.finish_deal()
    stranger = create_player("stranger")
    for viewer in (None, stranger):
        body = profile_page(viewer, players[1])
        for match in (finished, running.match):
            assert f'data-match="{match.pk}"' not in body
        assert "private table" not in body
        assert "Won" not in body
        assert "Lost" not in body
        assert "No match yet." in body
        shown = figures(players[1], viewer)
        assert shown["Deals played"] == "0"
        assert shown["Matches played / won"] == "0 / 0"


def test_a_private_deal_ending_moves_nothing_a_stranger_sees(players: dict[int, User]):
    running = start_match(players, mode="classic", private=True, seed=4)
    before = profile_page(None, players[1])
    running.finish_deal()
    assert running.state.results
    assert profile_page(None, players[1]) == before
    # The player sees their own deal counted.
    assert figures(players[1], players[1])["Deals played"] == "1"


def test_the_player_their_table_and_staff_see_what_they_may(players: dict[int, User]):
    finished = start_match(players, mode="quick", private=True, seed=3).finish_match()
    staff = User.objects.create_user("staff-member", is_staff=True)
    for viewer in (players[1], players[2], staff):
        body = profile_page(viewer, players[1])
        assert f'data-match="{finished.pk}"' in body
        assert "private table" in body
    # The statistics of private tables are the player's own and staff's to see.
    assert figures(players[1], players[1])["Matches played / won"] != "0 / 0"
    assert figures(players[1], staff)["Matches played / won"] != "0 / 0"
    assert figures(players[1], players[2])["Matches played / won"] == "0 / 0"


def test_public_and_private_counts_are_kept_apart_and_rebuild_alike(players: dict[int, User]):
    start_match(players, mode="quick", private=True, seed=3).finish_match()
    start_match(players, mode="quick", seed=5).finish_match()
    rows = {(s.user_id, s.private): s.matches_played for s in PlayerStats.objects.all()}
    assert rows[(players[1].pk, True)] == 1
    assert rows[(players[1].pk, False)] == 1
    stranger_sees = figures(players[1], None)["Matches played / won"]
    assert stranger_sees.startswith("1 / ")
    kept = {(s.user_id, s.mode, s.private): +Counter(s.counts()) for s in PlayerStats.objects.all()}
    assert kept == stats_from_log()
    assert problems() == []
    rebuild()
    assert problems() == []
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 2
