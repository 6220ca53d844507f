"""What PostgreSQL refuses, the site answers cleanly: NUL characters and racing queue joins.

PostgreSQL cannot store or compare text holding a NUL character, and its
unique index turns two inserts racing for one player's waiting place into
an IntegrityError; each used to be a 500.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection

from games.match.models import Match
from games.social import queue
from games.social.models import ChatMessage, QueueEntry
from tests.support.drivers import started_match
from tests.support.players import client_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8
ROUNDS = 6


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def test_a_nul_in_chat_text_is_taken_out_or_refused_with_a_message(players):
    match: Match = started_match(players).match
    browser = client_for(players[1])
    url = f"/match/{match.pk}/chat/"
    kept = browser.post(url, {"text": "good\x00 luck\x00"}, headers={"HX-Request": "true"})
    assert kept.status_code == 200
    assert ChatMessage.objects.get().text == "good luck"
    refused = browser.post(url, {"text": "\x00\x00"}, headers={"HX-Request": "true"})
    assert refused.status_code == 400
    assert "write some letters, digits or emoji" in refused.content.decode()
    assert ChatMessage.objects.count() == 1


def test_a_nul_in_a_players_name_is_a_404(players):
    browser = client_for(None)
    assert browser.get("/players/alice/").status_code == 200
    response = browser.get("/players/ali%00ce/")
    assert response.status_code == 404
    assert browser.get("/players/%00/").status_code == 404


def test_racing_quick_match_joins_of_one_player_make_one_waiting_entry(players):
    player = players[1]
    crashes: list[str] = []
    lock = threading.Lock()
    for _round in range(ROUNDS):
        QueueEntry.objects.filter(user=player, status=QueueEntry.Status.WAITING).update(
            status=QueueEntry.Status.CANCELLED
        )
        start = threading.Barrier(THREADS)

        def join(start: threading.Barrier = start) -> None:
            try:
                start.wait()
                queue.join(player, mode=Match.Mode.CLASSIC, play_timer=15)
            except Exception as error:  # a 500 for the player
                with lock:
                    crashes.append(repr(error))
            finally:
                connection.close()

        threads = [threading.Thread(target=join) for _ in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        waiting = QueueEntry.objects.filter(user=player, status=QueueEntry.Status.WAITING)
        assert waiting.count() == 1
    assert Counter(crashes) == Counter()
