"""Social bench (issue 27, M3): what a chat line and idle quick-match pages cost a server.

Runs the site's real ASGI application in this process, on a SQLite file of
its own with the in-memory channel layer, and drives it with Channels'
WebSocket test client, so every figure is the CPU time of this one process:
the consumers, their database thread and the clients together.

- **Chat**: ``--watchers`` spectators (one account each, default 100) hold a
  table socket on one running match; each of ``--lines`` spectators in turn
  says one line, and the time runs from the post until every socket has
  received the line. Prints the CPU time per line.
- **Idle queue pages**: one account waits for a quick match and opens
  ``--queue-sockets`` quick-match pages (default 300); once every page that
  was let in has shown its first status, nothing happens for
  ``--idle-seconds``. Prints how many pages were let in and the CPU they
  cost, as a share of one core. ``--queue-cap N`` lets one account hold N
  pages, where the server caps them (``QUEUE_SOCKETS_PER_USER``), to measure
  the idle cost of that many pages.

Each figure is measured ``--runs`` times (new accounts and a new match each
time) and printed as min / median / max.

Run: ``.venv/bin/python bench/social_bench.py`` (``--only chat`` or
``--only queue`` for one of the two).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import secrets
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOST = (b"host", b"localhost")
ORIGIN = (b"origin", b"http://localhost")


def setup(workdir: Path, queue_cap: int | None) -> None:
    """Django on a fresh SQLite file, DEBUG off, the in-memory channel layer."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="baloot_site.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="localhost",
        DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}",
        # Room for every socket the bench opens.
        TABLE_SOCKETS_PER_SERVER="5000",
    )
    if queue_cap is not None:
        os.environ["QUEUE_SOCKETS_PER_USER"] = str(queue_cap)
    for name in ("REDIS_URL", "WORKER_IN_SERVER"):
        os.environ.pop(name, None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)
    # The log-in records and the missing static files say nothing about the figures.
    logging.disable(logging.WARNING)
    warnings.filterwarnings("ignore", message="No directory at")


def cookie_of(user: Any) -> bytes:
    """A Cookie header value for a logged-in session of ``user``."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def open_socket(path: str, cookie: bytes) -> tuple[Any, bool]:
    """A connected socket to ``path`` and whether it was let in (sent a frame)."""
    from channels.testing import WebsocketCommunicator

    from baloot_site.asgi import application

    socket = WebsocketCommunicator(application, path, headers=[HOST, ORIGIN, (b"cookie", cookie)])
    connected, _ = await socket.connect(timeout=30)
    if not connected:
        return socket, False
    output = await socket.receive_output(timeout=30)
    return socket, output["type"] == "websocket.send"


async def chat_line_cost(run: str, watchers: int, lines: int) -> list[float]:
    """CPU seconds per chat line said among ``watchers`` spectators' sockets."""
    from channels.db import database_sync_to_async
    from django.contrib.auth.models import User

    from games.match import services
    from games.social import chat

    def arrange() -> tuple[int, list[Any], list[bytes]]:
        players = [User.objects.create_user(f"{run}-player{n}") for n in (1, 2, 3, 4)]
        match = services.create_match(players[0])
        for n in (2, 3, 4):
            services.take_seat(players[n - 1], match, n)
        services.start_match(players[0], match)
        people = [User.objects.create_user(f"{run}-watcher{n}") for n in range(watchers)]
        return match.pk, people, [cookie_of(person) for person in people]

    match_id, people, cookies = await database_sync_to_async(arrange)()
    sockets = []
    for cookie in cookies:
        socket, let_in = await open_socket(f"/ws/match/{match_id}/", cookie)
        if not let_in:
            raise SystemExit("a spectator's socket was refused")
        sockets.append(socket)
    costs = []
    try:
        for number in range(lines):
            author = people[number % len(people)]
            started = time.process_time()
            await database_sync_to_async(chat.post)(author, match_id, text=f"line {number}")
            for socket in sockets:
                while "chat-line-" not in await socket.receive_from(timeout=30):
                    pass
            costs.append(time.process_time() - started)
    finally:
        for socket in sockets:
            await socket.disconnect()
    return costs


async def idle_queue_cost(run: str, attempts: int, idle_seconds: float) -> tuple[int, float]:
    """How many of ``attempts`` quick-match pages of one account were let in, and the
    share of a core they cost while idle for ``idle_seconds``."""
    from channels.db import database_sync_to_async
    from django.contrib.auth.models import User

    from games.social import queue

    def arrange() -> bytes:
        person = User.objects.create_user(f"{run}-waiting")
        queue.join(person, mode="classic", play_timer=30)
        return cookie_of(person)

    cookie = await database_sync_to_async(arrange)()
    sockets = []
    let_in = 0
    try:
        for _ in range(attempts):
            socket, served = await open_socket("/ws/queue/", cookie)
            sockets.append(socket)
            let_in += served
        started_cpu, started_wall = time.process_time(), time.monotonic()
        await asyncio.sleep(idle_seconds)
        share = (time.process_time() - started_cpu) / (time.monotonic() - started_wall)
    finally:
        for socket in sockets:
            await socket.disconnect()
    return let_in, share


def spread(values: list[float], scale: float, unit: str) -> str:
    """min / median / max of ``values`` times ``scale``, with ``unit``."""
    scaled = [value * scale for value in values]
    return (
        f"min {min(scaled):.1f} {unit}, median {statistics.median(scaled):.1f} {unit},"
        f" max {max(scaled):.1f} {unit}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["chat", "queue"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--lines", type=int, default=10)
    parser.add_argument("--queue-sockets", type=int, default=300)
    parser.add_argument("--idle-seconds", type=float, default=15.0)
    parser.add_argument("--queue-cap", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="social-bench-") as workdir:
        setup(Path(workdir), args.queue_cap)
        asyncio.run(measure(args))


async def measure(args: argparse.Namespace) -> None:
    """Every run of the figures asked for, printed as they are known."""
    if args.only in (None, "chat"):
        medians = []
        for run in range(args.runs):
            costs = await chat_line_cost(f"r{run}", args.watchers, args.lines)
            medians.append(statistics.median(costs))
        print(
            f"chat: CPU per line at {args.watchers} sockets in a room (median of"
            f" {args.lines} lines in each of {args.runs} runs): {spread(medians, 1000, 'ms')}"
        )
    if args.only in (None, "queue"):
        shares = []
        served = []
        for run in range(args.runs):
            let_in, share = await idle_queue_cost(f"r{run}", args.queue_sockets, args.idle_seconds)
            served.append(let_in)
            shares.append(share)
        print(
            f"queue: {args.queue_sockets} quick-match pages of one account, {min(served)}"
            f" to {max(served)} let in; CPU while idle for {args.idle_seconds:.0f} s"
            f" ({args.runs} runs): {spread(shares, 100, '% of a core')}"
        )


if __name__ == "__main__":
    main()
