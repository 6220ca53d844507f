"""The admin keeps a live deal's declared project cards hidden until the first trick ends."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import rules
from games.admin import EventAdmin
from games.match import services
from games.match.models import Event
from tests.support.drivers import Driver, seat_everyone

pytestmark = pytest.mark.django_db


def test_declared_project_cards_are_hidden_from_staff_until_trick_one_ends(admin_client, players):
    driver = Driver(services.start_match(players[1], seat_everyone(players)), seed=5)
    declared = None
    for _ in range(400):
        event = Event.objects.filter(match=driver.outcome.match).order_by("-seq").first()
        projects = event.payload.get("declare") if event is not None else None
        if projects and any(p.get("cards") for p in projects):
            declared = event
        state = driver.outcome.state
        if declared is not None and state.phase is rules.Phase.PLAYING:
            plays = len([a for a in state.deal_actions if "play" in a])
            if plays == 1:
                break
        # The seeded deal is chosen to hold a project: a deal without one
        # could not test the hiding, so it fails rather than passes.
        assert state.turn is not None, "seed 5 no longer deals a declared project"
        driver.step()
    assert declared is not None, "seed 5 no longer deals a declared project"
    match = driver.outcome.match
    cards = json.dumps(declared.payload["declare"][0]["cards"])
    # The log is shown a page at a time, in event order: ask for the page that
    # holds the declaration (a later deal's may lie beyond the first page).
    before = Event.objects.filter(match=match, seq__lt=declared.seq).count()
    page = before // EventAdmin.list_per_page + 1
    events = admin_client.get(
        reverse("admin:games_event_changelist"), {"match": match.pk, "p": page}
    )
    html = events.content.decode()
    assert events.status_code == 200
    # The declaration's own row is on it, named but without its cards (D18).
    shown = {
        **declared.payload,
        "declare": [{"project": declared.payload["declare"][0]["project"]}],
    }
    assert json.dumps(shown, ensure_ascii=False) in html.replace("&quot;", '"')
    assert json.dumps(declared.payload["declare"][0]["project"]) in html.replace("&quot;", '"')
    assert cards not in html.replace("&quot;", '"')
