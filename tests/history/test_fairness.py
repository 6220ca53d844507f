"""Verifiable deals: the commitment shown before a deal matches the seed shown after it."""

from __future__ import annotations

import hashlib
import html as html_lib
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template import Context, Template
from django.urls import reverse

from games import rules
from games.match.models import Event, Match
from tests.history.pages import engine_deals, get_replay
from tests.support.imports import store_queued_imports

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
COMMITMENT = re.compile(r'data-commitment="([0-9a-f]{64})"')
SEED = re.compile(r'data-seed="([0-9a-f]{64})"')
COMMAND = re.compile(r'<pre class="command"><code>(.*?)</code></pre>', re.DOTALL)


def verify_deal(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m games.rules verify-deal ...`` with the standard library alone (``-S``)."""
    return subprocess.run(
        [sys.executable, "-S", "-m", "games.rules", "verify-deal", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_commitment_shown_before_each_deal_matches_the_seed_revealed_after_it(
    client, new_match, make_user
):
    player = new_match(seed=71)
    client.force_login(make_user("watcher"))
    for number in (1, 2, 3):
        page = client.get(reverse("games:detail", args=[player.match.pk])).content.decode()
        (shown,) = COMMITMENT.findall(page)
        assert f"Deal {number} is sealed" in page
        assert not SEED.search(page)
        # The same commitment is what the table includes through the template tag.
        player.match.refresh_from_db()
        tag = Template("{% load deal_proof %}{% deal_commitment match %}")
        assert shown in tag.render(Context({"match": player.match}))
        assert client.get(f"/matches/{player.match.pk}/deals/{number}/").status_code == 404

        player.finish_deal()

        replay = get_replay(client, player.match, number, 0)
        (seed,) = SEED.findall(replay)
        assert COMMITMENT.findall(replay) == [shown]
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == shown
        assert "Verified: the seed deals exactly this deck" in replay


def test_every_stored_deck_is_the_deck_of_its_seed(finished: Match):
    deals = Event.objects.filter(match=finished, kind=Event.Kind.DEAL)
    assert deals.count() >= 3
    for event in deals:
        deal = event.payload["deal"]
        assert rules.deck_from_seed(deal["seed"]) == deal["deck"]
        assert rules.commitment(deal["seed"]) == deal["commitment"]
        assert hashlib.sha256(bytes.fromhex(deal["seed"])).hexdigest() == deal["commitment"]


def test_the_verify_command_recomputes_the_deck_shown_by_the_replay(
    client, finished: Match, players
):
    client.force_login(players[1])
    deal = engine_deals(finished)[0]
    page = get_replay(client, finished, 1, len(deal.actions))
    (seed,) = SEED.findall(page)
    (commitment,) = COMMITMENT.findall(page)
    # The command the page prints, run as printed.
    (command,) = COMMAND.findall(page)
    argv = shlex.split(html_lib.unescape(command))
    assert argv[:4] == ["python", "-m", "games.rules", "verify-deal"]
    shown = verify_deal(*argv[4:])
    assert shown.returncode == 0, shown.stderr
    report = json.loads(shown.stdout)
    assert report == {
        "commitment_ok": True,
        "commitment": commitment,
        "deck": deal.deal["deck"],
        "deck_ok": True,
    }
    # Without a deck it prints the deck the seed deals.
    alone = verify_deal(seed, commitment)
    assert alone.returncode == 0
    assert json.loads(alone.stdout)["deck"] == deal.deal["deck"]
    # A wrong commitment or another deck is caught.
    other = rules.deck_from_seed("00" * 32)
    assert verify_deal(seed, "0" * 64).returncode == 1
    tampered = verify_deal(seed, commitment, ",".join(other))
    assert tampered.returncode == 1
    assert json.loads(tampered.stdout)["deck_ok"] is False


def test_an_imported_deal_without_a_seed_says_it_cannot_be_checked(
    client, finished: Match, players
):
    client.force_login(players[1])
    data = json.loads(client.get(reverse("games:export", args=[finished.pk])).content)
    for record in data["rounds"]:
        del record["seed"]
    data["rounds"][1]["seed"] = "11" * 32  # a seed that deals another deck
    response = client.post(
        reverse("games:import"),
        {"document": SimpleUploadedFile("m.json", json.dumps(data).encode())},
    )
    assert response.status_code == 302
    store_queued_imports()
    match = Match.objects.get(imported=True)
    first = get_replay(client, match, 1, 0)
    assert "This deal names no seed" in first
    second = get_replay(client, match, 2, 0)
    assert "The seed does not match the commitment." in second
    assert "The seed does not deal this deck." in second


def test_the_live_table_shows_the_commitment_of_the_deal_in_play_never_its_seed(
    client, new_match, players, make_user
):
    player = new_match(seed=72)
    player.finish_deal()
    player.act()
    live = engine_deals(player.match)[-1].deal
    for user in (players[1], make_user("watcher")):
        client.force_login(user)
        url = reverse("play:table", args=[player.match.pk])
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            html = client.get(url, **headers).content.decode()
            assert COMMITMENT.findall(html) == [live["commitment"]]
            assert "Deal 2 is sealed" in html
            assert live["seed"] not in html
