"""Ratings: which matches are rated, the leaver rule, and replaying them gives the same ratings."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from games import rules
from games.match import services
from games.match.models import Match
from games.ratings import formula
from games.ratings.models import PlayerRating, PlayerStats, RatedMatch, RatedSeat
from games.ratings.rebuild import problems, rebuild, replay_ratings
from tests.support.drivers import Driver, quick_match, start_with_bots
from tests.support.imports import store_queued_imports
from tests.support.players import create_player

pytestmark = pytest.mark.django_db


def verify() -> str:
    out = io.StringIO()
    call_command("verify_matches", stdout=out)
    return out.getvalue()


def ratings_of(
    players: dict[int, User], mode: str = "quick"
) -> dict[int, tuple[float, float, int]]:
    rows = {r.user_id: r for r in PlayerRating.objects.filter(mode=mode)}
    return {
        n: (rows[u.pk].mu, rows[u.pk].sigma, rows[u.pk].rated_matches) for n, u in players.items()
    }


def test_a_match_of_four_people_is_rated_once_at_its_end(play_match, players):
    match = play_match(seed=1)
    assert match.status == Match.Status.FINISHED
    rated = RatedMatch.objects.get(match=match)
    assert rated.winner == match.winner
    # The library's own update for a first match between four new players.
    expected = formula.rate({n: formula.Skill() for n in (1, 2, 3, 4)}, match.winner)
    for number, (mu, sigma, count) in ratings_of(players).items():
        assert (mu, sigma, count) == (expected[number].mu, expected[number].sigma, 1)
    winners = [n for n in (1, 2, 3, 4) if rules.team_of(n) == match.winner]
    losers = [n for n in (1, 2, 3, 4) if n not in winners]
    assert all(
        expected[w].mu > formula.MU > expected[loser].mu for w in winners for loser in losers
    )
    assert not PlayerRating.objects.filter(mode="classic").exists()
    assert "Ratings and statistics match their rebuild." in verify()


def test_replaying_the_rated_matches_gives_the_same_ratings(play_match, players):
    for seed in (1, 2, 3):
        play_match(seed=seed)
    play_match(seed=4, leave=(2,))
    stored = ratings_of(players)
    seats = {
        r.pk: (r.mu_before, r.sigma_before, r.mu_after, r.sigma_after)
        for r in RatedSeat.objects.all()
    }
    assert problems() == []
    replayed = replay_ratings()
    for number, user in players.items():
        skill = replayed.skills[(user.pk, "quick")]
        assert (skill.mu, skill.sigma, replayed.counts[(user.pk, "quick")]) == stored[number]
    # Rebuilding from scratch twice stores the very same numbers.
    for _ in range(2):
        rebuild()
        assert ratings_of(players) == stored
        assert {
            r.pk: (r.mu_before, r.sigma_before, r.mu_after, r.sigma_after)
            for r in RatedSeat.objects.all()
        } == seats
    assert problems() == []


def test_verify_matches_fails_when_a_rating_was_tampered_with(play_match, players):
    play_match(seed=1)
    PlayerRating.objects.filter(user=players[1]).update(mu=40.0)
    out = io.StringIO()
    with pytest.raises(CommandError, match="ratings or statistics differ"):
        call_command("verify_matches", stdout=out)
    assert f"rating of player {players[1].pk} differs" in out.getvalue()


def test_a_leaver_is_rated_as_a_loss_even_when_their_team_wins(play_match, players):
    match = play_match(seed=2, leave=(1,))
    seats = {row.seat: row for row in RatedSeat.objects.filter(rated_match__match=match)}
    assert seats[1].left
    assert not any(seats[n].left for n in (2, 3, 4))
    start = {n: formula.Skill() for n in (1, 2, 3, 4)}
    loser = "B" if rules.team_of(1) == "A" else "A"
    as_played = formula.rate(start, match.winner)
    as_lost = formula.rate(start, loser)
    assert seats[1].mu_after == as_lost[1].mu < formula.MU
    for number in (2, 3, 4):
        assert seats[number].mu_after == as_played[number].mu
    assert seats[1].won == (match.winner == "A")
    assert problems() == []


def test_a_leaver_whose_team_won_still_loses_rating(players):
    """Seat 1 leaves and the others finish the match; whoever wins, seat 1 goes down."""
    for seed in range(1, 6):
        driver = Driver(quick_match(players, mode="quick"), seed=seed)
        driver.finish_deal()
        if driver.state.winner is not None:
            continue
        services.leave_seat(players[1], driver.match)
        driver.reload()
        match = driver.finish_match()
        if match.winner == "A":
            break
    else:
        pytest.fail("none of seeds 1-5 gave the leaver's team the win: pick another range")
    row = RatedSeat.objects.get(rated_match__match=match, seat=1)
    assert row.won
    assert row.left
    assert row.mu_after < row.mu_before
    partner = RatedSeat.objects.get(rated_match__match=match, seat=3)
    assert partner.mu_after > partner.mu_before


def test_a_player_who_comes_back_is_not_a_leaver(players):
    driver = Driver(quick_match(players, mode="quick"), seed=3)
    driver.finish_deal()
    services.leave_seat(players[2], driver.match)
    services.come_back(players[2], driver.match)
    driver.reload()
    match = driver.finish_match()
    assert not RatedSeat.objects.filter(rated_match__match=match, left=True).exists()


def test_tables_with_bots_are_not_rated(players):
    outcome = start_with_bots(players, bots=(2, 4), mode="quick")
    match = Driver(outcome, seed=5).finish_match()
    assert match.status == Match.Status.FINISHED
    assert not RatedMatch.objects.exists()
    assert not PlayerRating.objects.exists()
    # The people's statistics still count the match.
    assert PlayerStats.objects.get(user=players[1], mode="quick").matches_played == 1
    assert problems() == []


def test_bot_filled_quick_matches_are_not_rated(players):
    people = {1: players[1], 2: players[2], 3: players[3], 4: players[4]}
    outcome = services.open_full_table(people, mode="quick", play_timer=15, unrated=True)
    Driver(outcome, seed=6).finish_match()
    assert not RatedMatch.objects.exists()
    assert problems() == []


def test_aborted_matches_are_not_rated(players):
    driver = Driver(quick_match(players, mode="quick"), seed=7)
    driver.finish_deal()
    match = services.abort_match(driver.match)
    assert match.status == Match.Status.ABORTED
    assert not RatedMatch.objects.exists()
    assert not PlayerStats.objects.filter(matches_played__gt=0).exists()
    assert problems() == []


def test_imported_matches_count_for_nothing(play_match, players):
    match = play_match(seed=1)
    text = call_export(match)
    uploader = create_player("uploader")
    before = {s.pk: s.counts() for s in PlayerStats.objects.all()}
    services.queue_import(uploader, rules.read_document(text), text)
    store_queued_imports()
    assert Match.objects.filter(imported=True).count() == 1
    assert RatedMatch.objects.count() == 1
    assert {s.pk: s.counts() for s in PlayerStats.objects.all()} == before
    assert not PlayerStats.objects.filter(user=uploader).exists()
    assert problems() == []


def call_export(match: Match) -> str:
    out = io.StringIO()
    call_command("export_match", str(match.pk), stdout=out)
    return out.getvalue()


def test_a_match_finished_before_ratings_existed_is_rated_by_the_rebuild(play_match, players):
    match = play_match(seed=1)
    expected = ratings_of(players)
    RatedMatch.objects.all().delete()
    PlayerRating.objects.all().delete()
    assert f"Match {match.pk} should be rated." in problems()
    out = io.StringIO()
    call_command("rebuild_profiles", stdout=out)
    assert "Rebuilt 4 statistics rows and 4 ratings." in out.getvalue()
    assert ratings_of(players) == expected
    assert problems() == []
