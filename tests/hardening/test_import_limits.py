"""Bounded import: too many deals, abusive nesting and too many uploads are refused cheaply."""

from __future__ import annotations

import json
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import rules
from games.match.models import Match
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


def all_pass_document(deals: int) -> bytes:
    """A baloot/1 document of ``deals`` deals in which all four players pass twice."""
    rounds = []
    for number in range(deals):
        rounds.append(
            {
                "dealer": number % 4 + 1,
                "deck": rules.deck_from_seed(f"{number:064x}"),
                "actions": [{"seat": (number + s) % 4 + 1, "bid": "pass"} for s in range(8)],
            }
        )
    document = {"notation": "baloot/1", "mode": "classic", "rounds": rounds}
    return json.dumps(document).encode()


def upload(client, data: bytes):
    return client.post(
        reverse("games:import"), {"document": SimpleUploadedFile("match.json", data)}
    )


def test_a_document_of_2202_deals_is_refused_before_the_engine_runs(make_user):
    data = all_pass_document(2202)
    assert 700_000 < len(data) < 1024 * 1024
    browser = client_for(make_user("flooder"))
    started = time.perf_counter()
    response = upload(browser, data)
    elapsed = time.perf_counter() - started
    print(f"{len(data) // 1024} KB document of 2202 deals refused in {elapsed * 1000:.0f} ms")
    assert response.status_code == 200
    assert "2202 deals" in response.content.decode()
    assert not Match.objects.filter(imported=True).exists()


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_deeply_nested_json_is_refused_with_a_message(make_user, depth):
    nested = '{"notation": "baloot/1", "mode": "classic", "rounds": [], "x": '
    data = (nested + "[" * depth + "]" * depth + "}").encode()
    response = upload(client_for(make_user("nester")), data)
    assert response.status_code == 200
    assert "far too deep" in response.content.decode()


def test_imports_per_player_are_limited(make_user, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "IMPORTS": "2/d"}
    browser = client_for(make_user("importer"))
    codes = [upload(browser, b"{}").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
