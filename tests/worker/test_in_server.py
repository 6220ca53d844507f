"""The worker inside the server process, and the alarm that wakes a sleeping worker."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from baloot_site.asgi import application
from games import rules
from games.match import broadcast, services
from games.worker import alarm, due_turns, in_server
from games.worker.alarm import ALARM, Alarm
from games.worker.in_server import WorkerInServer
from tests.support.clock import deadline_of
from tests.table.live import seq_of, socket_for


def in_server_wrapper() -> WorkerInServer:
    """The WorkerInServer layer of the site's ASGI application."""
    layer: object = application
    while not isinstance(layer, WorkerInServer):
        layer = getattr(layer, "app", None) or layer.application  # type: ignore[attr-defined]
    return layer


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_bots_moves_reach_the_sockets_of_their_server(start_table, players, settings):
    """With WORKER_IN_SERVER, a bot table moves on and its moves are pushed, no relay needed."""
    settings.WORKER_IN_SERVER = True
    # Quick bots, with room between their moves for the socket's own reads.
    settings.BOT_DELAY_SECONDS = 0.05
    settings.ROUND_PAUSE_SECONDS = 0
    outcome = await database_sync_to_async(start_table)(bots=(2, 3, 4))
    # Seat 1 steps away: the bot plays for it too, so the whole table moves.
    await database_sync_to_async(services.leave_seat)(players[1], outcome.match)
    socket = await socket_for(outcome.match.pk, players[1])
    try:
        # Connecting is the server's first use: the worker starts with it.
        assert (await socket.connect())[0]
        shown = seq_of(await socket.receive_from(timeout=30))
        # Nobody but the worker in this process moves the table on.
        while shown < outcome.seq + 8:
            shown = max(shown, seq_of(await socket.receive_from(timeout=30)))
    finally:
        await socket.disconnect()
        wrapper = in_server_wrapper()
        if wrapper.task is not None:
            wrapper.task.cancel()
            wrapper.task = None


@pytest.mark.django_db
def test_the_next_deadline_is_the_earliest_of_the_running_matches(start_table):
    assert due_turns.next_deadline() is None
    first = start_table(bots=(2, 3, 4)).match
    second = start_table(bots=(2, 3, 4)).match
    soon = timezone.now() + timedelta(seconds=3)
    type(first).objects.filter(pk=first.pk).update(deadline=soon)
    type(second).objects.filter(pk=second.pk).update(deadline=soon + timedelta(hours=1))
    assert due_turns.next_deadline() == soon
    # A running match with no deadline at all is due now.
    type(second).objects.filter(pk=second.pk).update(deadline=None)
    assert due_turns.next_deadline() <= timezone.now()


def test_a_ring_wakes_a_sleeper_that_would_sleep_for_an_hour():
    alarm = Alarm()
    woke = threading.Event()

    def sleeper() -> None:
        alarm.sleep(timezone.now() + timedelta(hours=1), longest=3600)
        woke.set()

    thread = threading.Thread(target=sleeper, daemon=True)
    thread.start()
    assert not woke.wait(0.2)
    alarm.ring(timezone.now())
    assert woke.wait(30), "the ring did not wake the sleeper"


def test_a_stop_ends_a_sleep_and_a_ring_while_busy_is_kept():
    alarm = Alarm()
    stop = threading.Event()
    stop.set()
    alarm.sleep(None, longest=3600, stop=stop)
    # Rung while nobody sleeps: the next sleep ends at once.
    alarm.ring(timezone.now() - timedelta(seconds=1))
    done = threading.Event()
    thread = threading.Thread(target=lambda: (alarm.sleep(None, 3600), done.set()), daemon=True)
    thread.start()
    assert done.wait(30)


@pytest.mark.django_db(transaction=True)
def test_an_action_rings_the_alarm_with_its_new_deadline(start_table, players):
    running = start_table()
    seen = []
    original = ALARM.ring
    ALARM.ring = seen.append
    try:
        action = dict(rules.legal_actions(running.state)[0])
        action.pop("seat")
        outcome = services.submit(players[running.state.turn], running.match, action, running.seq)
    finally:
        ALARM.ring = original
    assert seen == [outcome.match.deadline]


@pytest.mark.django_db(transaction=True)
def test_a_worker_rings_its_own_alarm_without_publishing_its_deadlines(
    start_table, settings, monkeypatch
):
    running = start_table(bots=(1, 2, 3, 4))
    settings.REDIS_URL = "redis://127.0.0.1:9/0"
    published = []
    monkeypatch.setattr(alarm, "_publish", published.append)
    monkeypatch.setattr(alarm, "_publishing", True)
    seen = []
    monkeypatch.setattr(ALARM, "ring", seen.append)
    services.play_due_turn(running.match.pk, now=deadline_of(running.match))
    # A server process tells the separate workers.
    assert published == seen != []
    alarm.keep_wakeups_local()
    published.clear()
    seen.clear()
    turn = services.play_due_turn(running.match.pk, now=deadline_of(running.match))
    assert turn is not None
    # A worker hears its own deadline and tells no one else.
    assert seen == [turn.outcome.match.deadline]
    assert published == []


@pytest.mark.django_db(transaction=True)
def test_the_pass_in_the_server_sends_each_turn_before_playing_the_next(
    clock, start_table, monkeypatch: pytest.MonkeyPatch
):
    """In the embedded default a push waits for no other table's turn."""
    # However long the bots take, a batch would hold the whole pass.
    monkeypatch.setattr(broadcast, "BATCH_WAIT", 600.0)
    matches = [start_table(bots=(1, 2, 3, 4)).match for _ in range(3)]
    clock.set(max(deadline_of(match) for match in matches))
    order: list[str] = []
    send, play = broadcast._send, services.play_due_turn

    def sending(messages):
        order.extend("sent" for _ in messages)
        send(messages)

    def playing(*args, **kwargs):
        order.append("played")
        return play(*args, **kwargs)

    monkeypatch.setattr(broadcast, "_send", sending)
    monkeypatch.setattr(services, "play_due_turn", playing)
    played, _ = in_server._pass()
    assert played == 3
    assert order == ["played", "sent"] * 3
