"""Public profiles: ratings, statistics kept at each deal's end, recent matches, no invite leaks."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import rules
from games.match.models import Match
from games.ratings.models import PlayerStats
from games.ratings.rebuild import rebuild, stats_from_log
from tests.support.drivers import Driver, start_match, start_with_bots, started_match
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db


def profile_url(user: User) -> str:
    return reverse("ratings:profile", args=[user.get_username()])


def kept() -> dict[tuple[int, str, bool], Counter[str]]:
    rows = {(s.user_id, s.mode, s.private): +Counter(s.counts()) for s in PlayerStats.objects.all()}
    return {key: c for key, c in rows.items() if c}


def test_statistics_kept_deal_by_deal_equal_the_rebuild_from_the_log(players):
    # People acting (some turns forced by the timer), a match of Classic left
    # unfinished, and a bot table: every kind of deal end.
    start_match(players, mode="quick", seed=4).finish_match()
    unfinished = start_match(players, mode="classic", seed=5)
    unfinished.play_deals(3)
    total = sum(kept().values(), Counter())
    assert total["deals_played"] > 0
    bought = total["sun_bought"] + total["hokum_bought"]
    # Four people: each played deal counts for all four, its contract for one.
    assert bought * 4 == total["deals_played"]
    assert total["sun_made"] <= total["sun_bought"]
    assert total["hokum_made"] <= total["hokum_bought"]
    assert total["doubles_won"] <= total["doubles_called"]
    finished = Match.objects.filter(status=Match.Status.FINISHED).count()
    assert total["matches_played"] == 4 * finished
    Driver(start_with_bots(players, bots=(3,), mode="quick"), seed=9).finish_match()
    incremental = kept()
    assert incremental == stats_from_log()
    assert sum(incremental.values(), Counter())["matches_played"] == 4 * finished + 3
    rebuild()
    assert kept() == incremental


def test_a_deal_counts_the_contract_and_the_doubles_for_their_seats(players):
    driver = Driver(started_match(players, mode="quick"), seed=2)
    driver.finish_deal()
    result = driver.state.results[-1]
    counts = {s.user_id: s for s in PlayerStats.objects.filter(mode="quick")}
    if result.outcome in ("played", "sawa"):
        bidder = players[result.contract["bidder"]]
        kind = "hokum" if result.contract["type"] == "hokum" else "sun"
        assert getattr(counts[bidder.pk], f"{kind}_bought") == 1
        for user in players.values():
            assert counts[user.pk].deals_played == 1
            team = rules.team_of(next(n for n, u in players.items() if u == user))
            assert counts[user.pk].points == result.points[0 if team == "A" else 1]
    else:
        assert not PlayerStats.objects.exists()


def test_the_profile_shows_ratings_statistics_and_recent_matches(play_match, players):
    match = play_match(seed=1)
    body = client_for(None).get(profile_url(players[1])).content.decode()
    assert "provisional" in body
    assert "1 rated match" in body
    assert '<svg class="chart"' in body
    assert 'data-mode="quick"' in body
    assert "Matches played / won" in body
    assert f'href="{reverse("games:detail", args=[match.pk])}"' in body


def test_the_profile_reads_no_event_log(play_match, players, django_assert_max_num_queries):
    play_match(seed=1)
    client = client_for(players[2])
    with CaptureQueriesContext(connection) as queries:
        assert client.get(profile_url(players[1])).status_code == 200
    assert not [q for q in queries.captured_queries if "games_event" in q["sql"]]
    assert len(queries.captured_queries) <= 15


def test_only_finished_matches_are_linked(players):
    running = started_match(players, mode="quick").match
    body = client_for(None).get(profile_url(players[1])).content.decode()
    assert f'data-match="{running.pk}"' in body
    assert f'href="{reverse("games:detail", args=[running.pk])}"' not in body


def test_private_matches_count_but_never_show_their_invite_link(players):
    private = start_match(players, mode="quick", private=True, seed=3).finish_match()
    assert private.is_private
    stranger = create_player("stranger")
    link = f'href="{reverse("games:detail", args=[private.pk])}"'
    for viewer in (None, stranger, players[2]):
        body = client_for(viewer).get(profile_url(players[1])).content.decode()
        assert private.invite_token not in body
        assert "invite" not in body.lower()
        # Only a viewer who may see the match finds it, linked.
        assert ("private table" in body) == (viewer == players[2])
        assert (link in body) == (viewer == players[2])
    assert PlayerStats.objects.get(user=players[1], mode="quick").matches_played == 1


def test_an_unknown_or_inactive_player_has_no_profile(players):
    assert client_for(None).get("/players/nobody-here/").status_code == 404
    players[3].is_active = False
    players[3].save()
    assert client_for(None).get(profile_url(players[3])).status_code == 404


def test_player_names_link_to_their_profiles(play_match, players):
    match = play_match(seed=1)
    page = client_for(players[1]).get(reverse("games:detail", args=[match.pk])).content.decode()
    for user in players.values():
        assert f'href="{profile_url(user)}"' in page
    mine = client_for(players[1]).get(reverse("games:mine")).content.decode()
    assert f'href="{profile_url(players[2])}"' in mine


def test_bots_are_not_linked(players):
    outcome = start_with_bots(players, bots=(2, 3, 4), mode="quick")
    match = Driver(outcome, seed=1).finish_match()
    page = client_for(players[1]).get(reverse("games:detail", args=[match.pk])).content.decode()
    assert len(re.findall(r'class="player-link"', page)) == 1
    assert match.status == Match.Status.FINISHED


def test_the_table_links_other_players_in_a_new_tab(players):
    outcome = started_match(players, mode="quick")
    body = (
        client_for(players[1]).get(reverse("play:table", args=[outcome.match.pk])).content.decode()
    )
    assert re.search(
        rf'<a class="player-link" href="{profile_url(players[2])}" target="_blank" rel="noopener">',
        body,
    )
    assert f'href="{profile_url(players[1])}"' not in body


def test_a_leaver_still_has_the_match_in_their_statistics(play_match, players):
    play_match(seed=2, leave=(3,))
    assert PlayerStats.objects.get(user=players[3], mode="quick").matches_played == 1
    assert kept() == stats_from_log()


def test_nothing_of_a_deal_in_progress_reaches_the_statistics(players):
    driver = Driver(started_match(players, mode="quick"), seed=2)
    driver.until(lambda state: state.phase is rules.Phase.PLAYING)
    # Bids, calls and declarations are made, but the deal is not over.
    assert not PlayerStats.objects.exists()
    body = client_for(None).get(profile_url(players[1])).content.decode()
    assert "Sun contracts bought / made" in body
    assert re.search(r"<td class=\"num\"><bdi dir=\"ltr\">0 / 0</bdi></td>", body)
    driver.finish_deal()
    assert PlayerStats.objects.exists() == (driver.state.results[-1].outcome in ("played", "sawa"))
