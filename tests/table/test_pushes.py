"""Pushes of changed parts: what each socket gets, resynchronising, the socket cap and the cost."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse

from games import rules
from games.match import broadcast, services, versions
from games.match.broadcast import event_message, match_group
from games.match.models import Match
from tests.table.live import cards_in, close_all, frame_at, seq_of, socket_for

PART = re.compile(r'<[a-z]+ id="(t-[a-z-]+)" hx-swap-oob="morph"')
VIEW = re.compile(r'data-view="([0-9a-f]+)"')
BASE = re.compile(r'data-base="([0-9a-f]+)"')


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    """One process, one in-memory channel layer, whatever REDIS_URL says."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def parts_of(frame: str) -> set[str]:
    """The ids of the parts a push of changes carries."""
    return set(PART.findall(frame))


def view_of(frame: str) -> str:
    found = VIEW.search(frame)
    assert found is not None, "a frame without its view"
    return found.group(1)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def first_legal(state: rules.State) -> dict[str, Any]:
    action = dict(rules.legal_actions(state)[0])
    action.pop("seat")
    return action


@pytest.mark.django_db(transaction=True)
def test_an_action_with_four_seated_and_a_spectator_costs_at_most_15_queries(
    running, players, make_user, django_assert_max_num_queries
):
    """Submit, the HTTP answer and the pushes to five sockets, counted together."""
    watcher = make_user("wendy")
    actor = running.state.turn
    client = logged_in(players[actor])
    url = reverse("play:act", args=[running.match.pk])
    body = json.dumps({"action": first_legal(running.state), "expected_seq": running.seq})

    async def scenario() -> tuple[int, list[str]]:
        users = [players[1], players[2], players[3], players[4], watcher]
        sockets = [await socket_for(running.match.pk, user) for user in users]
        try:
            for socket in sockets:
                assert (await socket.connect())[0]
                await frame_at(socket, running.seq)
            # Counted on this test's thread, where the consumers' and the
            # view's database work runs too (thread-sensitive calls).
            counting = django_assert_max_num_queries(15)
            await sync_to_async(counting.__enter__)()
            response = await sync_to_async(client.post)(
                url, body, content_type="application/json", headers={"HX-Request": "true"}
            )
            frames = [await socket.receive_from(timeout=5) for socket in sockets]
            await sync_to_async(counting.__exit__)(None, None, None)
            for socket in sockets:
                await socket.receive_nothing(timeout=0.2)
            return response.status_code, frames
        finally:
            await close_all(sockets)

    status, frames = async_to_sync(scenario)()
    assert status == 200
    for frame in frames:
        assert seq_of(frame) == running.seq + 1
        # Changes only: the status line always, never the whole region.
        assert 'id="table"' not in frame
        assert "t-turn" in parts_of(frame)


async def _move_made_elsewhere(
    running: Any, users: list[Any], actor: Any, action: dict[str, Any]
) -> list[Any]:
    """Sockets of ``users`` showing the running match, then ``actor``'s ``action``
    submitted as by another server process: no version reaches this
    process's store, so the sockets learn of it only from the announcement."""
    sockets = [await socket_for(running.match.pk, user) for user in users]
    try:
        for socket in sockets:
            assert (await socket.connect())[0]
            await frame_at(socket, running.seq)
        # The version the service commits goes to a store of its own, as in
        # another process: this process's store (the hub's) never sees it.
        store = versions.STORE
        versions.STORE = versions.Versions()
        try:
            await database_sync_to_async(services.submit)(
                actor, running.match.pk, action, running.seq
            )
        finally:
            versions.STORE = store
    except BaseException:
        await close_all(sockets)
        raise
    return sockets


@pytest.mark.django_db(transaction=True)
def test_a_process_that_did_not_make_the_move_reads_it_once_for_every_socket(
    running, players, make_user, django_assert_max_num_queries
):
    """Announced by another process: one reading, whatever the number of sockets."""
    watcher = make_user("wendy")
    actor = running.state.turn
    action = first_legal(running.state)

    async def scenario() -> None:
        users = [players[1], players[2], players[3], players[4], watcher, watcher]
        sockets = await _move_made_elsewhere(running, users, players[actor], action)
        try:
            counting = django_assert_max_num_queries(4)
            await sync_to_async(counting.__enter__)()
            for socket in sockets:
                await frame_at(socket, running.seq + 1)
            await sync_to_async(counting.__exit__)(None, None, None)
        finally:
            await close_all(sockets)

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_a_process_that_did_not_make_the_move_follows_its_step_without_a_query(
    running, players, make_user, django_assert_max_num_queries, monkeypatch
):
    """Announced by another process with its step: no reading at all, and every socket
    gets the same frame as if the match had been read."""
    monkeypatch.setattr(broadcast, "steps_travel", lambda: True)
    watcher = make_user("wendy")
    actor = running.state.turn
    action = first_legal(running.state)

    async def scenario() -> list[str]:
        users = [players[1], players[2], players[3], players[4], watcher]
        sockets = await _move_made_elsewhere(running, users, players[actor], action)
        try:
            counting = django_assert_max_num_queries(0)
            await sync_to_async(counting.__enter__)()
            frames = [(await frame_at(socket, running.seq + 1))[-1] for socket in sockets]
            await sync_to_async(counting.__exit__)(None, None, None)
            return frames
        finally:
            await close_all(sockets)

    frames = async_to_sync(scenario)()
    for frame in frames:
        assert 'id="table"' not in frame
        assert "t-turn" in parts_of(frame)


@pytest.mark.django_db(transaction=True)
def test_a_clock_announcement_is_read_once_by_a_process(
    running, players, make_user, django_assert_max_num_queries
):
    """The countdown moved without an event: one reading for all the sockets."""
    watcher = make_user("wendy")
    pk = running.match.pk

    async def scenario() -> list[str]:
        users = [players[1], players[2], players[3], players[4], watcher, watcher]
        sockets = [await socket_for(pk, user) for user in users]
        try:
            for socket in sockets:
                assert (await socket.connect())[0]
                await frame_at(socket, running.seq)
            later = running.match.deadline + timedelta(seconds=100)
            await database_sync_to_async(Match.objects.filter(pk=pk).update)(deadline=later)
            counting = django_assert_max_num_queries(2)
            await sync_to_async(counting.__enter__)()
            await get_channel_layer().group_send(
                match_group(pk), event_message(pk, running.seq, clock=True, revision="r1")
            )
            frames = [(await frame_at(socket, running.seq))[-1] for socket in sockets]
            await sync_to_async(counting.__exit__)(None, None, None)
            return frames
        finally:
            await close_all(sockets)

    for frame in async_to_sync(scenario)():
        # The countdown changed: the status line comes again, not the whole region.
        assert "t-turn" in parts_of(frame)
        assert 'id="table"' not in frame


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_push_carries_only_the_parts_that_changed_for_its_viewer(running, players):
    socket = await socket_for(running.match.pk, players[1])
    try:
        assert (await socket.connect())[0]
        (whole,) = await frame_at(socket, running.seq)
        assert 'hx-swap-oob="morph"' in whole
        assert '<section id="table"' in whole
        first_view = view_of(whole)
        actor = running.state.turn
        outcome = await database_sync_to_async(services.submit)(
            players[actor], running.match.pk, first_legal(running.state), running.seq
        )
        (frame,) = await frame_at(socket, outcome.seq)
        assert '<section id="table"' not in frame
        assert BASE.search(frame).group(1) == first_view
        changed = parts_of(frame)
        # The status line changed, not the bar around it (a part inside a
        # part), and the score sheet and the deal's commitment not at all.
        assert "t-turn" in changed
        assert not changed & {"t-status", "t-sheet", "t-commitment", "t-match-over"}
        assert frame.count('id="t-turn"') == 1
        # Seat 1's own hand is never sent to it again while it only watches bids.
        assert seq_of(frame) == outcome.seq
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_page_showing_another_picture_gets_the_whole_region_once(running, players):
    socket = await socket_for(running.match.pk, players[3])
    try:
        assert (await socket.connect())[0]
        (whole,) = await frame_at(socket, running.seq)
        view = view_of(whole)
        # The page shows what was sent: nothing to do.
        await socket.send_to(text_data=json.dumps({"seq": running.seq, "view": view}))
        await socket.receive_nothing(timeout=0.3)
        # It shows something else (a push went missing): the whole region, once.
        await socket.send_to(text_data=json.dumps({"seq": running.seq - 1, "view": "0" * 16}))
        again = await socket.receive_from(timeout=5)
        assert '<section id="table"' in again
        assert seq_of(again) == running.seq
        await socket.send_to(text_data=json.dumps({"seq": running.seq - 1, "view": "0" * 16}))
        await socket.receive_nothing(timeout=0.3)
        await socket.send_to(text_data="not json at all")
        await socket.send_to(text_data="x" * 10_000)
        await socket.receive_nothing(timeout=0.3)
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_user_may_hold_only_so_many_sockets_at_one_table(running, players, settings):
    settings.TABLE_SOCKETS_PER_USER = 2
    sockets = [await socket_for(running.match.pk, players[2]) for _ in range(3)]
    try:
        for socket in sockets[:2]:
            assert (await socket.connect())[0]
            await frame_at(socket, running.seq)
        connected, _ = await sockets[2].connect()
        assert connected
        closing = await sockets[2].receive_output(timeout=5)
        assert closing == {"type": "websocket.close", "code": 4429}
        # Closing one frees its place.
        await sockets[0].disconnect()
        again = await socket_for(running.match.pk, players[2])
        sockets.append(again)
        assert (await again.connect())[0]
        await frame_at(again, running.seq)
    finally:
        await close_all(sockets[1:])


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_seat_changes_are_pushed_to_the_waiting_room(players, make_user):
    match = await database_sync_to_async(services.create_match)(players[1])
    socket = await socket_for(match.pk, players[1])
    try:
        assert (await socket.connect())[0]
        whole = await socket.receive_from(timeout=5)
        assert "Waiting for players" in whole
        await database_sync_to_async(services.take_seat)(players[2], match, 2)
        frame = await socket.receive_from(timeout=5)
        assert players[2].username in frame
        await database_sync_to_async(services.add_bot)(players[1], match, 3)
        frame = await socket.receive_from(timeout=5)
        assert "Remove the bot" in frame
        await database_sync_to_async(services.add_bot)(players[1], match, 4)
        await socket.receive_from(timeout=5)
        outcome = await database_sync_to_async(services.start_match)(players[1], match)
        (frame,) = await frame_at(socket, outcome.seq)
        # The waiting room became a table: its parts are new, so the region comes whole.
        assert '<section id="table"' in frame
        assert set(rules.view_for(outcome.state, 1)["hand"]) <= cards_in(frame)
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_player_the_host_removes_leaves_the_other_pages_too(players):
    match = await database_sync_to_async(services.create_match)(players[1])
    await database_sync_to_async(services.take_seat)(players[2], match, 2)
    await database_sync_to_async(services.take_seat)(players[3], match, 3)
    # Someone else at the table than the host who removes, and than the one removed.
    socket = await socket_for(match.pk, players[3])
    try:
        assert (await socket.connect())[0]
        whole = await socket.receive_from(timeout=5)
        assert players[2].username in whole
        await database_sync_to_async(services.remove_player)(players[1], match, 2)
        frame = await socket.receive_from(timeout=5)
        assert players[2].username not in frame
        assert players[3].username in frame
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_push_is_handled_without_a_trip_to_the_database_thread(
    running, players, monkeypatch
):
    """Channels' own dispatch hops to the database thread before every message
    (``aclose_old_connections``); the table socket's does not (baloot_site.consumers)."""
    hops: list[str] = []

    async def hop() -> None:
        hops.append("hop")

    monkeypatch.setattr("channels.consumer.aclose_old_connections", hop)
    socket = await socket_for(running.match.pk, players[1])
    try:
        assert (await socket.connect())[0]
        await frame_at(socket, running.seq)
        actor = running.state.turn
        outcome = await database_sync_to_async(services.submit)(
            players[actor], running.match.pk, first_legal(running.state), running.seq
        )
        (frame,) = await frame_at(socket, outcome.seq)
        assert seq_of(frame) == outcome.seq
        await socket.send_to(text_data=json.dumps({"seq": outcome.seq, "view": "x"}))
        (whole,) = await frame_at(socket, outcome.seq)
        assert '<section id="table"' in whole
        assert hops == []
    finally:
        await socket.disconnect()
