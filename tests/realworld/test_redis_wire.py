"""What a stranger on the Redis server sees of a match played on the production stack.

Two daphne processes and a worker on PostgreSQL and Redis, the channel layer
encrypted with CHANNEL_ENCRYPTION_KEY, play a private match to its end (its
creator opened it through the pages, added three bots, started it and
stepped away) while the creator and a guest who followed the invite link
watch it from both processes. A plain Redis client subscribed to every
channel of the server (``PSUBSCRIBE *``, which ignores database indexes)
records every message meanwhile. None holds the invite token; none of the
site's (its channels are named after its database index, one of this
module's own) holds any two cards of a deck or a declared project in a row,
in any encoding; every message of the layer is a Fernet token. Decrypted
with the key, the messages carry steps whose events are all public, naming
no card but the ones they play. The worker's wake-ups carry a time alone,
on a channel named after the index.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from stacks.clients import HttpSession, TableWatcher, close_all
from stacks.servers import (
    SPARE_REDIS_DB,
    Stack,
)
from stacks.tables import PASSWORD, events
from tests.realworld.conftest import empty_redis_index

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

KEY = secrets.token_urlsafe(32)
# What may stand between two cards of a list in any encoding the site could
# use (JSON, msgpack's short strings), and never in a Fernet token's base64.
BETWEEN_CARDS = rb"[\"',:\s\[\]\xa0-\xbf]{1,6}"
# A Redis database index of this module's own: the other test modules' stacks
# use TEST_REDIS_DB, and a stranger's view covers every index, so the site's
# channels are told apart by the index in their names.
OWN_REDIS_DB = SPARE_REDIS_DB
LAYER_PREFIX = f"asgi.{OWN_REDIS_DB}."
WAKE_CHANNEL = f"baloot.{OWN_REDIS_DB}.worker.wake"


@pytest.fixture(scope="module")
def own_redis_url() -> Iterator[str]:
    """A Redis database index for this module alone, empty before and after it."""
    yield from empty_redis_index(OWN_REDIS_DB)


@pytest.fixture(scope="module")
def stack(
    postgres_url: str, own_redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    # The production layout, with the channel key every process of a site shares.
    site = Stack(
        postgres_url,
        own_redis_url,
        Path(tmp_path_factory.mktemp("redis-wire")),
        servers=2,
        workers=1,
        bot_delay=0.05,
        extra_env={"CHANNEL_ENCRYPTION_KEY": KEY},
    )
    site.prepare()
    site.start()
    try:
        yield site
    finally:
        site.stop()


class Sniffer:
    """A plain Redis client subscribed to every channel, recording what is published."""

    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url)
        self.subscription = self.client.pubsub(ignore_subscribe_messages=True)
        self.subscription.psubscribe("*")
        self.messages: list[tuple[str, bytes]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            message = self.subscription.get_message(timeout=0.2)
            if message is not None and message["type"] == "pmessage":
                self.messages.append((message["channel"].decode(), bytes(message["data"])))

    def close(self) -> list[tuple[str, bytes]]:
        self.stop.set()
        self.thread.join(timeout=5)
        self.subscription.close()
        self.client.close()
        return self.messages


def create_users(stack: Stack) -> None:
    stack.shell(
        "from django.contrib.auth.models import User\n"
        f"User.objects.create_user('owner', password={PASSWORD!r})\n"
        f"User.objects.create_user('guest', password={PASSWORD!r})\n"
    )


def private_bot_match(owner: HttpSession) -> tuple[int, str]:
    """A private Quick table opened by ``owner`` through the pages, three bots added,
    started, and its creator stepped away (a bot plays the seat): (id, invite token)."""
    opened = owner.post("/lobby/new/", {"mode": "quick", "play_timer": "15", "is_private": "on"})
    assert opened.status == 302, opened.text[:500]
    found = re.fullmatch(r"/match/(\d+)/", opened.headers["location"])
    assert found is not None
    match_id = int(found.group(1))
    for number in (2, 3, 4):
        added = owner.post(f"/match/{match_id}/bot/", {"number": str(number), "op": "add"})
        assert added.status == 302, added.text[:500]
    page = owner.get(f"/match/{match_id}/")
    link = re.search(rf"/match/{match_id}/\?invite=([A-Za-z0-9_-]+)", page.text)
    assert link is not None
    assert owner.post(f"/match/{match_id}/start/", {}).status == 302
    assert owner.post(f"/match/{match_id}/leave/", {}).status == 302
    return match_id, link.group(1)


def secret_runs(stack: Stack, match_id: int) -> list[list[str]]:
    """Every list of hidden cards the match's log holds: each deck, each declared project."""
    runs = []
    for _seq, kind, _seat, _auto, payload in events(stack, match_id):
        if kind == "deal":
            runs.append(payload["deal"]["deck"])
        for project in payload.get("declare") or []:
            runs.append(project["cards"])
    return runs


def adjacent_pair(run: list[str]) -> re.Pattern[bytes]:
    """Any two cards that follow each other in ``run``, in any encoding of a list."""
    pairs = [
        re.escape(first.encode()) + BETWEEN_CARDS + re.escape(second.encode())
        for first, second in pairwise(run)
    ]
    return re.compile(b"|".join(pairs))


def decrypted(data: bytes) -> dict[str, Any]:
    """A layer message read as a server process of the site reads it, with the key."""
    from channels_redis.serializers import registry

    reader = registry.get_serializer("msgpack", symmetric_encryption_keys=[KEY])
    message: dict[str, Any] = reader.deserialize(data)
    return message


def finished(stack: Stack, match_id: int) -> bool:
    return stack.rows("SELECT status FROM games_match WHERE id = %s", match_id)[0][0] == "finished"


@pytest.mark.asyncio
async def test_a_redis_client_reading_every_channel_sees_no_hidden_card_and_no_invite(
    stack: Stack,
):
    a, b = stack.daphnes
    sniffer = Sniffer(stack.redis_url or "")
    owner = HttpSession(a.url)
    guest = HttpSession(b.url)
    watchers: list[TableWatcher] = []
    try:
        await asyncio.to_thread(create_users, stack)
        await asyncio.to_thread(owner.log_in, "owner", PASSWORD)
        await asyncio.to_thread(guest.log_in, "guest", PASSWORD)
        match_id, token = await asyncio.to_thread(private_bot_match, owner)
        # The guest follows the invite link: one redirect, and the session holds it.
        link = await asyncio.to_thread(guest.get, f"/match/{match_id}/?invite={token}")
        assert link.status == 302
        assert link.headers["location"] == f"/match/{match_id}/"
        page = await asyncio.to_thread(guest.get, f"/match/{match_id}/")
        assert page.status == 200
        assert token not in page.text
        # Both processes keep the match, and take the steps the worker announces.
        watchers = [
            TableWatcher(a.ws_url, match_id, owner.cookie_header, origin=a.url),
            TableWatcher(b.ws_url, match_id, guest.cookie_header, origin=b.url),
            TableWatcher(a.ws_url, match_id, guest.on(a.url).cookie_header, origin=a.url),
        ]
        for watcher in watchers:
            await watcher.start()
        for _ in range(1200):
            if await asyncio.to_thread(finished, stack, match_id):
                break
            await asyncio.sleep(0.25)
        else:
            pytest.fail("the bots did not finish their match in five minutes")
        last = len(await asyncio.to_thread(events, stack, match_id))
        for watcher in watchers:
            await watcher.wait_for_seq(last, timeout=60)
            assert all(token not in frame.text for frame in watcher.frames)
    finally:
        await close_all(watchers)
        seen = sniffer.close()
    runs = await asyncio.to_thread(secret_runs, stack, match_id)
    assert len([run for run in runs if len(run) == 32]) >= 2, "a match of several deals"
    assert any(len(run) < 32 for run in runs), "a bot declared a project"

    # Other sites (other test runs) may publish on the server meanwhile: the
    # site's own channels are those named after its index.
    ours = [(channel, data) for channel, data in seen if channel.startswith(LAYER_PREFIX)]
    group = f"{LAYER_PREFIX}__group__match-{match_id}"
    assert sum(channel == group for channel, _data in ours) > 50
    # In the bytes a stranger reads: no token anywhere, no two hidden cards in a row.
    for channel, data in seen:
        assert token.encode() not in data, channel
    patterns = [adjacent_pair(run) for run in runs]
    for channel, data in [*ours, *((c, d) for c, d in seen if c == WAKE_CHANNEL)]:
        for pattern in patterns:
            assert not pattern.search(data), (channel, data[:200])
    # Every message of the layer is encrypted...
    for channel, data in ours:
        assert data.startswith(b"gAAAAA"), (channel, data[:80])
    # ...and says, to the site itself, nothing more than a spectator sees.
    steps_taken = 0
    for _channel, data in ours:
        message = decrypted(data)
        text = json.dumps(message)
        assert token not in text
        assert "deck" not in text
        step = message.get("next")
        if step is None:
            continue
        steps_taken += 1
        body = json.loads(step["body"])
        played = set()
        for kind, _version, payload in body["events"]:
            assert kind == "action"
            assert "declare" not in payload
            if "play" in payload:
                played.add(payload["play"])
        assert set(re.findall(r"\b[789TJQKA][SHDC]\b", step["body"])) == played
    assert steps_taken > 20
    # The worker's wake-ups: a time and nothing else, on the index's own channel.
    wakes = [data for channel, data in seen if channel == WAKE_CHANNEL]
    assert wakes
    for data in wakes:
        assert re.fullmatch(rb"\d{4}-\d\d-\d\dT[\d:.]+\+00:00", data), data
    assert not stack.tracebacks()
