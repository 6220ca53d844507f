"""The production stack: two daphne processes and two workers on PostgreSQL and Redis.

An action posted to one process reaches a client of the other, an expired
timer is played once although two workers race for it, and bots move once
per turn while clients of both processes watch. Everything goes through
real sockets; the database is only read, to count what was recorded.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from stacks.clients import HttpSession, TableWatcher, action_buttons, close_all
from stacks.servers import Stack
from stacks.tables import (
    PASSWORD,
    abort,
    assert_log_intact,
    create_user,
    events,
    start_tables,
    verify,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# What a worker logs for each action it records (games.worker.due_turns).
LOGGED_EVENT = re.compile(r"match (\d+) event (\d+): ")


@pytest.fixture(scope="module")
def stack(
    postgres_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    site = Stack(
        postgres_url,
        redis_url,
        Path(tmp_path_factory.mktemp("production-stack")),
        servers=2,
        workers=2,
        bot_delay=0.05,
    )
    site.prepare()
    site.start()
    try:
        yield site
    finally:
        site.stop()


def worker_records(stack: Stack) -> Counter[tuple[int, int]]:
    """How many times the workers' logs mention recording each (match, event)."""
    counts: Counter[tuple[int, int]] = Counter()
    for process in stack.worker_processes:
        for match_id, seq in LOGGED_EVENT.findall(process.log()):
            counts[int(match_id), int(seq)] += 1
    return counts


async def wait_until(condition, timeout: float, what: str) -> None:
    """Poll ``condition()`` (a blocking check) until true; fails after ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await asyncio.to_thread(condition):
        assert loop.time() < deadline, f"gave up waiting for {what}"
        await asyncio.sleep(0.1)


@pytest.mark.asyncio
async def test_an_action_posted_to_one_process_is_pushed_to_clients_of_the_other(stack: Stack):
    a, b = stack.daphnes
    [table] = await asyncio.to_thread(start_tables, stack, 1, (1, 2, 3, 4), prefix="push")
    assert table.turn is not None
    # Hold the clock while people log in: the POST, not a timer, must move the table.
    await asyncio.to_thread(
        stack.execute,
        "UPDATE games_match SET deadline = now() + interval '1 hour' WHERE id = %s",
        table.match_id,
    )
    actor_name = table.players[table.turn]
    partner_name = table.players[(table.turn + 1) % 4 + 1]
    assert actor_name is not None
    assert partner_name is not None
    actor = HttpSession(a.url)
    partner = HttpSession(b.url)
    await asyncio.to_thread(actor.log_in, actor_name, PASSWORD)
    await asyncio.to_thread(partner.log_in, partner_name, PASSWORD)

    page = await asyncio.to_thread(actor.get, f"/match/{table.match_id}/")
    assert page.status == 200
    assert page.seq == 1
    # The buttons post the verb alone; the server adds the seat.
    pass_bid = {"bid": "pass"}
    assert pass_bid in action_buttons(page.text)

    # Two clients of process B: the actor's own second page, on the session
    # made by process A, and the partner's.
    watchers = [
        TableWatcher(b.ws_url, table.match_id, actor.cookie_header, origin=b.url),
        TableWatcher(b.ws_url, table.match_id, partner.cookie_header, origin=b.url),
    ]
    try:
        for watcher in watchers:
            await watcher.start()
            assert watcher.frames[0].seq == 1
        response = await asyncio.to_thread(actor.act, table.match_id, pass_bid, 1)
        assert response.status == 200, response.text[:500]
        assert response.seq == 2
        for watcher in watchers:
            frame = await watcher.wait_for_seq(2, timeout=30)
            assert frame.seq == 2
            assert f"<strong>{actor_name}</strong>" in frame.text
    finally:
        await close_all(watchers)
    log = await asyncio.to_thread(events, stack, table.match_id)
    assert [(seq, kind, seat, auto) for seq, kind, seat, auto, _p in log] == [
        (1, "deal", None, False),
        (2, "action", table.turn, False),
    ]
    assert log[1][4] == {"seat": table.turn, "bid": "pass"}
    assert stack.tracebacks() == []


@pytest.mark.asyncio
async def test_an_expired_timer_is_played_once_although_two_workers_race(stack: Stack):
    tables = await asyncio.to_thread(
        start_tables, stack, 8, (1, 2, 3, 4), prefix="timer", can_log_in=False
    )
    ids = [table.match_id for table in tables]
    spectator = HttpSession(stack.daphnes[0].url)
    await asyncio.to_thread(create_user, stack, "timer-watcher")
    await asyncio.to_thread(spectator.log_in, "timer-watcher", PASSWORD)
    watchers = [
        TableWatcher(daphne.ws_url, ids[0], spectator.cookie_header, origin=daphne.url)
        for daphne in stack.daphnes
    ]
    try:
        for watcher in watchers:
            await watcher.start()
        # Every first bidder's time runs out at the same instant.
        await asyncio.to_thread(
            stack.execute, "UPDATE games_match SET deadline = now() WHERE id = ANY(%s)", ids
        )
        await wait_until(
            lambda: all(len(events(stack, pk)) >= 2 for pk in ids), 60, "every timer to fire"
        )
        for watcher in watchers:
            frame = await watcher.wait_for_seq(2, timeout=30)
            assert "timed out" in frame.text
    finally:
        await close_all(watchers)

    records = worker_records(stack)
    for table in tables:
        log = events(stack, table.match_id)
        seq, kind, seat, auto, _payload = log[1]
        assert (seq, kind, seat, auto) == (2, "action", table.turn, True)
        assert records[table.match_id, 2] == 1, "one worker, and one only, played the timer"
        missed = stack.rows(
            "SELECT missed_turns FROM games_seat WHERE match_id = %s AND number = %s",
            table.match_id,
            table.turn,
        )
        assert missed == [(1,)]
    # Stopped, so that their next timeouts do not land while a later test
    # replays every match of the stack (verify_matches).
    await asyncio.to_thread(abort, stack, ids)
    assert_log_intact(stack, ids)
    assert stack.tracebacks() == []


@pytest.mark.asyncio
async def test_bots_move_once_per_turn_while_clients_of_both_processes_watch(stack: Stack):
    tables = await asyncio.to_thread(start_tables, stack, 3, (), prefix="bots")
    ids = [table.match_id for table in tables]
    await asyncio.to_thread(create_user, stack, "bot-watcher")
    spectator = HttpSession(stack.daphnes[0].url)
    await asyncio.to_thread(spectator.log_in, "bot-watcher", PASSWORD)
    watchers = [
        TableWatcher(daphne.ws_url, pk, spectator.cookie_header, origin=daphne.url)
        for pk in ids
        for daphne in stack.daphnes
    ]
    try:
        for watcher in watchers:
            await watcher.start()
        await wait_until(
            lambda: all(len(events(stack, pk)) >= 30 for pk in ids), 120, "30 events per table"
        )
        # Stopped through the admin's service, so the log is final from here.
        await asyncio.to_thread(abort, stack, ids)
        final = await asyncio.to_thread(assert_log_intact, stack, ids)
        for watcher in watchers:
            await watcher.wait_for_seq(final[watcher.match_id], timeout=30)
    finally:
        await close_all(watchers)

    for watcher in watchers:
        seqs = [frame.seq for frame in watcher.frames]
        assert seqs == sorted(seqs), "a client was sent an older table after a newer one"
        assert watcher.connections == 1
        assert watcher.max_seq == final[watcher.match_id]
    records = worker_records(stack)
    for pk in ids:
        actions = [seq for seq, kind, _seat, _auto, _p in events(stack, pk) if kind == "action"]
        assert len(actions) >= 25
        logged = sorted(seq for (match_id, seq), _n in records.items() if match_id == pk)
        assert logged == actions, "each bot move is recorded by exactly one worker"
        assert all(records[pk, seq] == 1 for seq in actions)
    assert "replay consistently" in verify(stack)
    assert stack.tracebacks() == []


async def seated_player(stack: Stack, prefix: str) -> tuple[int, int, HttpSession]:
    """A table of four people whose clock is held, and the seat to act, logged in on A."""
    [table] = await asyncio.to_thread(start_tables, stack, 1, (1, 2, 3, 4), prefix=prefix)
    assert table.turn is not None
    await asyncio.to_thread(
        stack.execute,
        "UPDATE games_match SET deadline = now() + interval '1 hour' WHERE id = %s",
        table.match_id,
    )
    name = table.players[table.turn]
    assert name is not None
    player = HttpSession(stack.daphnes[0].url)
    await asyncio.to_thread(player.log_in, name, PASSWORD)
    return table.match_id, table.turn, player


def actions_recorded(stack: Stack, match_id: int) -> list[dict]:
    return [payload for _s, kind, _seat, _a, payload in events(stack, match_id) if kind == "action"]


@pytest.mark.asyncio
async def test_a_double_click_records_one_event(stack: Stack):
    match_id, seat, player = await seated_player(stack, "double")
    # The same request twice at the same moment, as a double click sends it.
    answers = await asyncio.gather(
        asyncio.to_thread(player.act, match_id, {"bid": "pass"}, 1),
        asyncio.to_thread(player.act, match_id, {"bid": "pass"}, 1),
    )
    assert sorted(answer.status for answer in answers) == [200, 409]
    assert all(answer.seq == 2 for answer in answers), "both get the table as it now is"
    assert actions_recorded(stack, match_id) == [{"seat": seat, "bid": "pass"}]
    assert stack.tracebacks() == []


@pytest.mark.asyncio
async def test_two_tabs_on_two_processes_record_one_event(stack: Stack):
    match_id, seat, player = await seated_player(stack, "tabs")
    other_tab = player.on(stack.daphnes[1].url)
    answers = await asyncio.gather(
        asyncio.to_thread(player.act, match_id, {"bid": "pass"}, 1),
        asyncio.to_thread(other_tab.act, match_id, {"bid": "hokum"}, 1),
    )
    assert sorted(answer.status for answer in answers) == [200, 409]
    winner = {"seat": seat, "bid": "pass" if answers[0].status == 200 else "hokum"}
    assert actions_recorded(stack, match_id) == [winner]
    assert stack.tracebacks() == []


@pytest.mark.asyncio
async def test_a_replayed_request_records_nothing_more(stack: Stack):
    match_id, seat, player = await seated_player(stack, "replay")
    first = await asyncio.to_thread(player.act, match_id, {"bid": "pass"}, 1)
    assert first.status == 200
    # The very same request again, later, to either process, with or without htmx.
    for session in (player, player.on(stack.daphnes[1].url)):
        for htmx in (True, False):
            again = await asyncio.to_thread(session.act, match_id, {"bid": "pass"}, 1, htmx=htmx)
            assert again.status == 409
    assert actions_recorded(stack, match_id) == [{"seat": seat, "bid": "pass"}]
    assert stack.tracebacks() == []


@pytest.mark.asyncio
async def test_an_idle_table_socket_stays_connected(stack: Stack):
    # The channel layer's blocking read waits 5 seconds at a time: a socket
    # idle for longer than twice that must keep its one connection.
    match_id, _seat, player = await seated_player(stack, "idle")
    watchers = [
        TableWatcher(daphne.ws_url, match_id, player.cookie_header, origin=daphne.url)
        for daphne in stack.daphnes
    ]
    try:
        for watcher in watchers:
            await watcher.start()
        await asyncio.sleep(12)
        answer = await asyncio.to_thread(player.act, match_id, {"bid": "pass"}, 1)
        assert answer.status == 200
        for watcher in watchers:
            await watcher.wait_for_seq(2, timeout=30)
    finally:
        await close_all(watchers)
    assert [watcher.connections for watcher in watchers] == [1, 1]
    assert stack.tracebacks() == []
