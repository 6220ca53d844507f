"""Quick match across two server processes: forty players at once make exactly ten tables.

Forty players, each with a session of their own, open the quick-match page's
socket on one of two daphne processes (alternately) and all ask for a game
at the same moment, half of the requests to each process. Matching runs in
both processes at once on the shared PostgreSQL queue; the row locks must
seat every player exactly once. Then six more players make one table and
leave two waiting. A chat line posted to one process reaches the players'
sockets on the other.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from stacks.clients import HttpSession
from stacks.servers import Stack
from stacks.tables import PASSWORD, start_tables

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture(scope="module")
def stack(
    postgres_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    site = Stack(
        postgres_url,
        redis_url,
        Path(tmp_path_factory.mktemp("quick-match")),
        servers=2,
        workers=0,
    )
    site.prepare()
    site.start()
    try:
        yield site
    finally:
        site.stop()


def sessions_for(stack: Stack, names: list[str]) -> dict[str, str]:
    """A logged-in session key per new player, made server-side (hashing 40 passwords is slow)."""
    out = stack.shell(
        "import json\n"
        "from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY\n"
        "from django.contrib.auth.models import User\n"
        "from django.contrib.sessions.backends.db import SessionStore\n"
        f"names = {names!r}\n"
        "keys = {}\n"
        "for name in names:\n"
        "    user = User.objects.create_user(name)\n"
        "    session = SessionStore()\n"
        "    session[SESSION_KEY] = str(user.pk)\n"
        "    session[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend'\n"
        "    session[HASH_SESSION_KEY] = user.get_session_auth_hash()\n"
        "    session.create()\n"
        "    keys[name] = session.session_key\n"
        "print(json.dumps(keys))\n"
    )
    return json.loads(out.strip().splitlines()[-1])


def seating(stack: Stack, names: list[str]) -> dict[str, list[int]]:
    """The quick-match tables each player was seated at."""
    rows = stack.rows(
        "SELECT u.username, s.match_id FROM games_seat s JOIN auth_user u ON u.id = s.user_id "
        "WHERE u.username = ANY(%s)",
        names,
    )
    tables: dict[str, list[int]] = {name: [] for name in names}
    for name, match_id in rows:
        tables[name].append(match_id)
    return tables


def statuses(stack: Stack, names: list[str]) -> Counter[str]:
    rows = stack.rows(
        "SELECT q.status FROM games_queueentry q JOIN auth_user u ON u.id = q.user_id "
        "WHERE u.username = ANY(%s)",
        names,
    )
    return Counter(status for (status,) in rows)


async def crowd(stack: Stack, names: list[str]) -> dict[str, list[int]]:
    """Everyone opens the queue page's socket, then all ask for a Classic game at once."""
    keys = await asyncio.to_thread(sessions_for, stack, names)
    servers = stack.daphnes
    sessions = []
    for number, name in enumerate(names):
        server = servers[number % len(servers)]
        session = HttpSession(server.url)
        session.cookies["sessionid"] = keys[name]
        await asyncio.to_thread(session.get, "/quick/")
        sessions.append((server, session))
    sockets = []
    try:
        for server, session in sessions:
            headers = {"Cookie": session.cookie_header, "Origin": server.url}
            socket = await connect(f"{server.ws_url}/ws/queue/", additional_headers=headers)
            sockets.append(socket)
            await asyncio.wait_for(socket.recv(), 30)
        answers = await asyncio.gather(
            *(
                asyncio.to_thread(
                    session.post, "/quick/find/", {"mode": "classic", "play_timer": "15"}
                )
                for _server, session in sessions
            )
        )
        assert all(answer.status == 302 for answer in answers), [a.status for a in answers]
        # Every join has tried to match by the time its answer came; wait for
        # any matcher still retrying to finish.
        expected = len(names) // 4 * 4
        for _ in range(100):
            if statuses(stack, names)["matched"] >= expected:
                break
            await asyncio.sleep(0.2)
        return seating(stack, names)
    finally:
        for socket in sockets:
            await socket.close()


@pytest.mark.asyncio
async def test_forty_players_at_once_make_exactly_ten_tables(stack: Stack):
    names = [f"crowd{n}" for n in range(40)]
    tables = await crowd(stack, names)
    assert all(len(seats) == 1 for seats in tables.values()), {
        name: seats for name, seats in tables.items() if len(seats) != 1
    }
    per_table = Counter(seats[0] for seats in tables.values())
    assert len(per_table) == 10
    assert set(per_table.values()) == {4}
    assert statuses(stack, names) == Counter({"matched": 40})
    rows = stack.rows("SELECT status, unrated FROM games_match WHERE id = ANY(%s)", list(per_table))
    assert len(rows) == 10
    assert all(row == ("playing", False) for row in rows)
    for log in stack.logs().values():
        assert "Traceback" not in log


@pytest.mark.asyncio
async def test_six_players_make_one_table_and_two_keep_waiting(stack: Stack):
    names = [f"six{n}" for n in range(6)]
    keys = await asyncio.to_thread(sessions_for, stack, names)
    server = stack.daphnes[0]
    sessions = []
    sockets = []
    try:
        for name in names:
            session = HttpSession(server.url)
            session.cookies["sessionid"] = keys[name]
            await asyncio.to_thread(session.get, "/quick/")
            headers = {"Cookie": session.cookie_header, "Origin": server.url}
            socket = await connect(f"{server.ws_url}/ws/queue/", additional_headers=headers)
            await asyncio.wait_for(socket.recv(), 30)
            sockets.append(socket)
            sessions.append(session)
        await asyncio.gather(
            *(
                asyncio.to_thread(
                    session.post, "/quick/find/", {"mode": "quick", "play_timer": "10"}
                )
                for session in sessions
            )
        )
        for _ in range(50):
            if statuses(stack, names)["matched"] >= 4:
                break
            await asyncio.sleep(0.2)
        tables = seating(stack, names)
        seated = [name for name, seats in tables.items() if seats]
        assert len(seated) == 4
        assert len({tables[name][0] for name in seated}) == 1
        assert statuses(stack, names) == Counter({"matched": 4, "waiting": 2})
        # The two still waiting see each other in the queue.
        waiting = [n for n, name in enumerate(names) if not tables[name]]
        page = await asyncio.to_thread(sessions[waiting[0]].get, "/quick/")
        assert "data-queue-count>2<" in page.text
    finally:
        for socket in sockets:
            await socket.close()


async def frame_with(socket: object, text: str, timeout: float = 30) -> str:
    """The first frame from ``socket`` containing ``text``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        left = deadline - loop.time()
        assert left > 0, f"no frame with {text!r}"
        frame = await asyncio.wait_for(socket.recv(), left)  # type: ignore[attr-defined]
        if text in frame:
            return str(frame)


@pytest.mark.asyncio
async def test_a_chat_line_posted_to_one_process_reaches_players_on_the_other(stack: Stack):
    a, b = stack.daphnes
    [table] = await asyncio.to_thread(start_tables, stack, 1, (1, 2), prefix="talk")
    names = [str(table.players[1]), str(table.players[2])]
    keys = await asyncio.to_thread(sessions_for, stack, ["talkwatcher"])
    speaker, listener = HttpSession(a.url), HttpSession(b.url)
    await asyncio.to_thread(speaker.log_in, names[0], PASSWORD)
    await asyncio.to_thread(listener.log_in, names[1], PASSWORD)
    watcher = HttpSession(b.url)
    watcher.cookies["sessionid"] = keys["talkwatcher"]
    sockets = []
    try:
        for session in (listener, watcher):
            headers = {"Cookie": session.cookie_header, "Origin": b.url}
            socket = await connect(
                f"{b.ws_url}/ws/match/{table.match_id}/", additional_headers=headers
            )
            sockets.append(socket)
            await frame_with(socket, 'id="table"')
        answer = await asyncio.to_thread(
            speaker.post,
            f"/match/{table.match_id}/chat/",
            {"text": "<i>salam</i> from process A"},
            headers={"HX-Request": "true"},
        )
        assert answer.status == 200, answer.text[:300]
        frame = await frame_with(sockets[0], "chat-line-")
        assert "&lt;i&gt;salam&lt;/i&gt; from process A" in frame
        # The spectator's socket on the same process hears nothing of it.
        with pytest.raises(TimeoutError):
            await frame_with(sockets[1], "chat-line-", timeout=1)
    finally:
        for socket in sockets:
            await socket.close()
