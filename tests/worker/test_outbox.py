"""Every committed event is announced, even when the process that committed it dies."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.match import broadcast, services
from games.match.broadcast import RELAY_AFTER, announce_on_commit, relay_pending
from games.match.models import Announcement, Match
from tests.support.clock import deadline_of

pytestmark = pytest.mark.django_db


class Layer:
    """A channel layer that records what is sent to groups, or fails to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.down = False

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if self.down:
            raise ConnectionError("the channel layer is down")
        self.sent.append((group, message))


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> Layer:
    recorder = Layer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: recorder)
    return recorder


def test_an_event_is_announced_once_committed_and_leaves_the_outbox(
    clock, start_table, layer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        outcome = start_table()
    pk = outcome.match.pk
    # Seat changes first (at event 0), then the first deal.
    assert [(group, m["match"], m["seq"]) for group, m in layer.sent][-1] == (f"match-{pk}", pk, 1)
    assert not Announcement.objects.exists()


def test_a_rolled_back_event_is_neither_kept_nor_announced(
    clock, start_table, layer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        outcome = start_table()
    layer.sent.clear()

    def announce_then_fail() -> None:
        with transaction.atomic():
            announce_on_commit(outcome.match.pk, outcome.seq + 1)
            raise RuntimeError("rolled back")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        announce_then_fail()
    assert layer.sent == []
    assert not Announcement.objects.exists()


def test_the_relay_announces_what_a_dead_process_committed(
    clock, start_table, layer, django_capture_on_commit_callbacks
):
    # The committing process dies after its commit: its on-commit send never runs.
    with django_capture_on_commit_callbacks(execute=False):
        outcome = start_table()
    pk = outcome.match.pk
    deadline = deadline_of(outcome.match)
    assert relay_pending() == 0, "the committer's own send is given a moment first"
    assert layer.sent == []

    late = RELAY_AFTER + timedelta(seconds=0.2)
    clock.advance(late.total_seconds())
    assert relay_pending() == 1
    assert layer.sent == [(f"match-{pk}", {"type": "match.event", "match": pk, "seq": 1})]
    assert not Announcement.objects.exists()
    # The player's clock starts when the turn is announced, not at the commit.
    assert deadline_of(outcome.match) == deadline + late
    assert relay_pending() == 0


def test_an_announcement_the_layer_refused_is_sent_later(
    clock, start_table, layer, django_capture_on_commit_callbacks
):
    layer.down = True
    with django_capture_on_commit_callbacks(execute=True):
        outcome = start_table()
    unsent = Announcement.objects.count()
    assert unsent >= 1
    clock.advance(1)
    assert relay_pending() == 0
    assert Announcement.objects.count() == unsent
    layer.down = False
    assert relay_pending() == 1
    assert [message["seq"] for _group, message in layer.sent] == [outcome.seq]
    assert not Announcement.objects.exists()


def test_the_relay_sends_each_match_its_latest_event_once(clock, start_table, layer):
    outcome = start_table()
    pk = outcome.match.pk
    with transaction.atomic():
        announce_on_commit(pk, outcome.seq)
        announce_on_commit(pk, outcome.seq, clock=True)
    clock.advance(1)
    assert relay_pending() == 1
    ((group, message),) = layer.sent
    # Named, so that a server process reads the match once for it, not once per socket.
    assert message.pop("rev").startswith("relay-")
    assert (group, message) == (
        f"match-{pk}",
        {"type": "match.event", "match": pk, "seq": 1, "clock": True},
    )
    assert not Announcement.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_worker_pass_sends_each_announcement_at_once_and_strikes_them_together(
    clock, start_table, layer, monkeypatch: pytest.MonkeyPatch
):
    """No push waits for other tables' turns; only the outbox clean-up waits for the pass."""
    # However long the bots take here, the pass is one batch.
    monkeypatch.setattr(broadcast, "BATCH_WAIT", 600.0)
    matches = [start_table(bots=(1, 2, 3, 4)).match for _ in range(3)]
    clock.set(max(deadline_of(match) for match in matches))
    layer.sent.clear()
    order: list[str] = []
    send_soon, play = broadcast._send_soon, services.play_due_turn

    def sending(messages):
        order.extend("sent" for _ in messages)
        return send_soon(messages)

    def playing(*args, **kwargs):
        order.append("played")
        return play(*args, **kwargs)

    monkeypatch.setattr(broadcast, "_send_soon", sending)
    monkeypatch.setattr(services, "play_due_turn", playing)
    with CaptureQueriesContext(connection) as queries:
        call_command("run_worker", "--once", stdout=io.StringIO())
    assert order == ["played", "sent"] * 3
    sent = [(message["match"], message["seq"]) for _group, message in layer.sent]
    assert sorted(sent) == sorted((m.pk, Match.objects.get(pk=m.pk).seq) for m in matches)
    assert all(Match.objects.get(pk=match.pk).seq > match.seq for match in matches)
    # One outbox clean-up for the whole pass, not one per announcement.
    deletes = [q["sql"] for q in queries if q["sql"].startswith('DELETE FROM "games_announcement"')]
    assert len(deletes) == 1
    assert not Announcement.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_batch_that_cannot_be_sent_is_left_to_the_relay(
    clock, start_table, layer, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(broadcast, "BATCH_WAIT", 600.0)
    match = start_table(bots=(1, 2, 3, 4)).match
    clock.set(deadline_of(match))
    layer.sent.clear()
    layer.down = True
    call_command("run_worker", "--once", stdout=io.StringIO())
    assert layer.sent == []
    kept = list(Announcement.objects.values_list("match_id", "seq"))
    assert kept == [(match.pk, Match.objects.get(pk=match.pk).seq)]
    layer.down = False
    clock.advance((RELAY_AFTER + timedelta(seconds=0.1)).total_seconds())
    assert relay_pending() == 1
    assert [(m["match"], m["seq"]) for _group, m in layer.sent] == kept
