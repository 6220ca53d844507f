"""The deal analysis on the pages: per card in the replay, per player on the match page,
and nothing of it for a deal in progress, on any page or socket."""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse

from games.match.models import DealAnalysis, Match
from games.worker import analysis
from tests.history.pages import replay_url
from tests.support.analysis import bot_match, cards_on_table, finish_deals
from tests.support.players import client_for
from tests.table.live import frame_at, seq_of, socket_for

# What only an analysis puts on a page.
MARKERS = ("data-analysis", "evaluation-chart", "data-loss", "data-best", "analysis-table")
BEFORE = re.compile(r'data-before="(\d+) (\d+)"')
AFTER = re.compile(r'data-after="(\d+) (\d+)"')
BEST = re.compile(r'data-best="([^"]*)"')
DEAL_ROW = re.compile(r'<tr data-analysis-deal="(\d+)">')
SEAT_ROW = re.compile(r'<tr data-seat="(\d)" data-accuracy="(\d*)" data-lost="(\d+)">')
CHART_POINT = re.compile(r'<a href="[^"]*" data-step="(\d+)"><circle')


def analyse_everything() -> None:
    while analysis.analyse_next() is not None:
        pass


def live_match(owner: Any) -> tuple[Match, int]:
    """A bot match whose first played deal is over and whose next deal has cards on the table."""
    match = bot_match(owner)
    finish_deals(match, 1)
    cards_on_table(match, 5)
    match.refresh_from_db()
    return match, match.deal_number


def played_number(match: Match, live: int) -> int:
    rows = DealAnalysis.objects.filter(match=match, number__lt=live)
    return max(rows, key=lambda row: len(row.plays)).number


def assert_no_analysis_of(client: Any, match: Match, live: int) -> None:
    """Every address of the live deal is missing, and no page carries its analysis."""
    assert not DealAnalysis.objects.filter(match=match, number__gte=live).exists()
    for number in (live, live + 1):
        for step in ("", "0", "1", "5", "40"):
            response = client.get(replay_url(match, number), {"step": step} if step else {})
            assert response.status_code == 404
    page = client.get(reverse("games:detail", args=[match.pk])).content.decode()
    assert all(int(n) < live for n in DEAL_ROW.findall(page))
    table = client.get(reverse("play:table", args=[match.pk])).content.decode()
    assert not any(marker in table for marker in MARKERS)


@pytest.mark.django_db
def test_the_replay_and_match_page_show_the_analysis_of_finished_deals_only(players, settings):
    settings.ROUND_PAUSE_SECONDS = 0
    match, live = live_match(players[1])
    client = client_for(players[2])
    # Finished but not analysed yet: the replay says so and shows nothing else.
    first = client.get(replay_url(match, 1, 1)).content.decode()
    assert not any(marker in first for marker in MARKERS)
    analyse_everything()
    assert_no_analysis_of(client, match, live)

    number = played_number(match, live)
    row = DealAnalysis.objects.get(match=match, number=number)
    plays = {play["step"]: play for play in row.plays}
    for step, play in plays.items():
        html = client.get(replay_url(match, number, step)).content.decode()
        assert "data-analysis" in html
        assert [tuple(map(int, b)) for b in BEFORE.findall(html)] == [tuple(play["before"])]
        assert [tuple(map(int, a)) for a in AFTER.findall(html)] == [tuple(play["after"])]
        assert BEST.findall(html) == ([" ".join(play["best"])] if play["loss"] else [])
        # The evaluation line: a point before the first card and one per play.
        assert len(CHART_POINT.findall(html)) == len(plays) + 1
        assert 'class="evaluation-now"' in html
    graded = [step for step, play in plays.items() if play["loss"] >= 10]
    start = client.get(replay_url(match, number, 0)).content.decode()
    for step in graded:
        assert (
            f'<span class="badge badge-{"blunder" if plays[step]["loss"] >= 20 else "mistake"}"'
            in start
        )
    if graded:
        assert 'data-replay-key="next-mistake"' in start
        assert (
            f"step={graded[0]}"
            in start.split('data-replay-key="next-mistake"')[0].rsplit("href=", 1)[1]
        )

    # The match page: each player's accuracy and points lost over the analysed deals.
    page = client.get(reverse("games:detail", args=[match.pk])).content.decode()
    assert "analysis-table" in page
    rows = DealAnalysis.objects.filter(match=match)
    for seat, accuracy, lost in SEAT_ROW.findall(page):
        mine = [p for r in rows for p in r.plays if p["seat"] == int(seat)]
        assert int(lost) == sum(p["loss"] for p in mine)
        kept = sum(1 for p in mine if p["loss"] == 0)
        assert accuracy == (str(round(100 * kept / len(mine))) if mine else "")
    assert {int(n) for n in DEAL_ROW.findall(page)} == {r.number for r in rows if r.plays}

    # In Arabic too.
    arabic = client_for(players[2], "ar").get(replay_url(match, number, 1)).content.decode()
    assert "التحليل" in arabic


@pytest.mark.django_db(transaction=True)
def test_no_socket_carries_an_analysis_during_a_deal(players, settings):
    settings.ROUND_PAUSE_SECONDS = 0
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    match, live = live_match(players[1])
    analyse_everything()
    assert DealAnalysis.objects.filter(match=match).exists()
    assert_no_analysis_of(client_for(players[3]), match, live)

    async def scenario() -> int:
        watched = 0
        for user in (players[1], players[4]):
            socket = await socket_for(match.pk, user)
            try:
                connected, _code = await socket.connect()
                assert connected
                watched += 1
                frames = await frame_at(socket, match.seq)
                assert seq_of(frames[-1]) == match.seq
                for frame in frames:
                    assert not any(marker in frame for marker in MARKERS)
            finally:
                await socket.disconnect()
        return watched

    assert async_to_sync(scenario)() == 2
