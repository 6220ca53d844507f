"""The match page: score sheet from the engine's explanations, the SVG chart, replay links."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.match.models import Match
from tests.history.pages import engine_deals, replay_url

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr data-deal="(\d+)">(.*?)</tr>', re.DOTALL)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")


def sheet_cells(html: str) -> dict[int, list[str]]:
    """Every score-sheet row's cells as text, by deal number."""
    return {
        int(number): [" ".join(TAG.sub(" ", cell).split()) for cell in CELL.findall(row)]
        for number, row in ROW.findall(html)
    }


def test_score_sheet_rows_come_from_the_engine_explanations(client, finished: Match, players):
    client.force_login(players[2])  # team B: "us" is B
    response = client.get(reverse("games:detail", args=[finished.pk]))
    html = response.content.decode()
    rows = sheet_cells(html)
    deals = engine_deals(finished)
    assert sorted(rows) == [deal.number for deal in deals]
    names = {1: "alice", 2: "bob", 3: "carol", 4: "dave"}
    for deal in deals:
        result = deal.states[-1].results[-1].explain()
        cells = rows[deal.number]
        contract = result["contract"]
        assert cells[1] == names[result["dealer"]]
        assert cells[3] == (names[contract["bidder"]] if contract else "—")
        if contract and contract["gahwa"]:
            assert cells[4] == "Gahwa"
        elif contract:
            assert cells[4] == f"\N{MULTIPLICATION SIGN}{contract['multiplier']}"
        projects = {t: sum(p["value"] for p in result["projects"][t]) for t in "AB"}
        assert cells[5:7] == [str(projects["B"]), str(projects["A"])]
        notes = cells[8]
        if result.get("defeated"):
            assert "defeated" in notes
        if result.get("sweep"):
            assert "Sweep by" in notes
        assert cells[9:13] == [
            str(result["points"]["B"]),
            str(result["points"]["A"]),
            str(result["score"]["B"]),
            str(result["score"]["A"]),
        ]
        assert cells[13] == f"Replay deal {deal.number}"
        assert f'href="{replay_url(finished, deal.number)}"' in html
    assert ">Us<" in html
    assert ">Them<" in html


def test_a_spectator_reads_the_sheet_as_team_a_and_team_b(client, finished: Match, make_user):
    client.force_login(make_user("spectator"))
    html = client.get(reverse("games:detail", args=[finished.pk])).content.decode()
    last = engine_deals(finished)[-1].states[-1].results[-1].explain()
    cells = sheet_cells(html)[len(engine_deals(finished))]
    assert cells[11:13] == [str(last["score"]["A"]), str(last["score"]["B"])]
    assert "Total (Team A)" in html


def test_score_chart_is_inline_svg_with_title_description_and_both_lines(
    client, finished: Match, players
):
    client.force_login(players[1])
    html = client.get(reverse("games:detail", args=[finished.pk])).content.decode()
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'role="img"' in svg
    assert 'aria-labelledby="chart-title chart-desc"' in svg
    assert '<title id="chart-title">Score progression</title>' in svg
    deals = engine_deals(finished)
    scores = [deal.states[-1].score for deal in deals]
    found = re.search(r'<desc id="chart-desc">(.*?)</desc>', svg)
    assert found is not None
    description = found.group(1)
    assert f"Over {len(deals)} deals" in description
    assert f"from 52 to {scores[-1]['A']}" in description
    assert "won the match" in description
    polylines = re.findall(r'<polyline points="([^"]+)"', svg)
    assert len(polylines) == 2
    assert all(len(points.split()) == len(deals) + 1 for points in polylines)
    # One labelled point per team and deal, the start included, and the axes' ticks.
    titles = re.findall(r"<circle [^>]*><title>([^<]+)</title>", svg)
    assert f"Us after deal {len(deals)}: {scores[-1]['A']}" in titles
    assert f"Them after deal {len(deals)}: {scores[-1]['B']}" in titles
    assert "Target: 152" in svg
    assert f">{len(deals)}</text>" in svg
    # No script is needed to draw it.
    assert "<script" not in html.split("<main", 1)[1]


def test_running_match_links_only_finished_deals_and_shows_the_commitment(
    client, new_match, players
):
    player = new_match(seed=61)
    player.play_deals(2)
    match = player.match
    client.force_login(players[3])
    html = client.get(reverse("games:detail", args=[match.pk])).content.decode()
    assert sorted(sheet_cells(html)) == [1, 2]
    assert replay_url(match, 2) in html
    assert replay_url(match, 3) not in html
    live = engine_deals(match)[-1]
    assert f'data-commitment="{live.deal["commitment"]}"' in html
    assert live.deal["seed"] not in html
    assert "Deal 3 is sealed" in html
    assert reverse("games:export", args=[match.pk]) not in html


def test_finished_match_offers_its_notation(client, finished: Match, players):
    client.force_login(players[4])
    html = client.get(reverse("games:detail", args=[finished.pk])).content.decode()
    assert f'href="{reverse("games:export", args=[finished.pk])}"' in html
    assert "is sealed" not in html
