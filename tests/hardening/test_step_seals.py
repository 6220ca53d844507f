"""Steps between the server processes: public events only, no invite token, sealed.

A step carries only events every spectator sees once recorded, never the
invite token, and is sealed with an HMAC of the site's key; a step whose
seal is wrong is dropped and the page reads the database.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from games.match import broadcast, services, steps
from games.match.models import Event, Match
from games.match.versions import read as read_match
from games.table.live import Hub
from tests.support.drivers import start_with_bots, started_match

ROOT = Path(__file__).resolve().parents[2]
# Far enough ahead that every turn is due.
LATER = datetime(2100, 1, 1, tzinfo=UTC)
KEY = "a-channel-key-of-thirty-two-chars!"
CARD = re.compile(r"\b[789TJQKA][SHDC]\b")


@pytest.fixture
def announced(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every group message sent, with its step as it would cross to another process."""
    messages: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "steps_travel", lambda: True)
    monkeypatch.setattr(broadcast, "_send", messages.extend)
    return messages


def followed(players: dict[int, Any]) -> tuple[int, Hub]:
    """A started match and a hub that keeps its reading."""
    match_id = started_match(players).match.pk
    hub = Hub()
    assert hub.join(match_id, players[1].pk)
    hub.version(match_id, 0, None, fresh=True)
    return match_id, hub


@pytest.mark.django_db(transaction=True)
def test_a_forged_step_is_dropped_and_the_page_reads_the_database(players, announced, settings):
    match_id, hub = followed(players)
    control = Hub()
    assert control.join(match_id, players[2].pk)
    control.version(match_id, 0, None, fresh=True)
    announced.clear()
    services.play_due_turn(match_id, now=LATER)
    [message] = announced
    genuine = message["next"]
    step = steps.opened(genuine)
    assert step is not None
    # What someone who can publish on Redis would send: a step sealed with a key
    # of their own, or the genuine seal over a step of their own.
    real_key = settings.SECRET_KEY
    settings.SECRET_KEY = "somebody-elses-key-" * 3
    forged = steps.seal(step)
    settings.SECRET_KEY = real_key
    assert forged["seal"] != genuine["seal"]
    played = dict(step, events=[["action", 1, {"seat": 2, "bid": "sun"}]])
    tampered = {"body": json.dumps(played), "seal": genuine["seal"]}
    for bad in (forged, tampered, {"body": genuine["body"]}, step):
        assert not hub.advance(match_id, message["seq"], message["rev"], bad)
        assert hub.known(match_id, message["seq"], message["rev"]) is None
    # The page then reads the database, which holds what was really played.
    reading = hub.version(match_id, message["seq"], message["rev"])
    assert reading.state == read_match(match_id).state
    # The genuine step is taken by a process whose reading it follows on from.
    assert control.advance(match_id, message["seq"], message["rev"], genuine)
    assert control.known(match_id, message["seq"], message["rev"]).state == reading.state


@pytest.mark.django_db(transaction=True)
def test_a_step_sealed_with_the_previous_key_is_taken_during_a_rotation(
    players, announced, settings
):
    match_id, hub = followed(players)
    announced.clear()
    services.play_due_turn(match_id, now=LATER)
    [message] = announced
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "the-new-key-of-the-site-" * 3
    assert hub.advance(match_id, message["seq"], message["rev"], message["next"])


@pytest.mark.django_db(transaction=True)
def test_no_step_carries_a_hidden_card_or_the_invite_token(players, announced, settings):
    settings.ROUND_PAUSE_SECONDS = 0
    outcome = start_with_bots(players, (1, 2, 3, 4), is_private=True)
    match = outcome.match
    announced.clear()
    while match.deal_number < outcome.match.deal_number + 6 and not match.is_over:
        services.play_due_turn(match.pk, now=LATER)
        match = Match.objects.get(pk=match.pk)
    # The bots declared projects, whose cards must stay out of every step.
    events = list(Event.objects.filter(match=match))
    assert any(event.payload.get("declare") for event in events)
    carried = [message for message in announced if "next" in message]
    assert len(carried) > len(announced) / 2
    for message in carried:
        body = message["next"]["body"]
        assert match.invite_token not in body
        step = steps.opened(message["next"])
        assert step is not None
        played = set()
        for kind, _version, payload in step["events"]:
            assert kind == "action"
            assert set(payload) <= steps.PUBLIC_ACTION_FIELDS
            if "play" in payload:
                played.add(payload["play"])
        # The only cards a step names are the ones it plays, face up on the table.
        assert set(CARD.findall(body)) == played
