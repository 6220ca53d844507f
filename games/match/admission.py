"""Who may open one more live socket: the server process's slots and each person's share.

Every WebSocket a server process holds, a table page's or a quick-match
page's, takes one of its ``TABLE_SOCKETS_PER_SERVER`` slots. The last
``TABLE_SOCKETS_RESERVED_FOR_PLAYERS`` of them are kept for players, sockets
at a match that is not over and where their user holds a seat: watchers
(anyone else at a table, or a player once the match is over) and
quick-match pages take only the others. However many sockets strangers
open, a seated player finds a slot while the players alone leave one.

Each person's sockets are counted across every server process too, by kind:
``TABLE_PLAYING_SOCKETS_PER_USER`` at the tables where they play,
``TABLE_WATCHING_SOCKETS_PER_USER`` at the tables they watch, and
``QUEUE_SOCKETS_PER_USER`` quick-match pages. So one account cannot fill
the slots that the others share out, by watching many matches or by
spreading its sockets over the processes.

With ``REDIS_URL`` the counts are kept in Redis: each socket holds a lease,
a member of its person's sorted set scored by when it lapses, taken by one
script that also drops the lapsed ones, so two processes cannot both take
the last share. Each process renews its leases every third of
``LEASE_SECONDS``, and a process that dies leaves leases that lapse within
``LEASE_SECONDS``. A Redis out of reach lets the socket in (and logs it):
the process's own slots still bound it. Without Redis there is one server
process, and its memory counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import threading
import time
import uuid
import weakref
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

# A lease lapses this long after it was taken or last renewed.
LEASE_SECONDS = 60.0
# Each key's name starts so (the worker's wake-up channel is named alike).
KEY_PREFIX = "baloot:sockets"

# Drops the lapsed leases, then takes one if fewer than the share are held.
# KEYS[1]: the person's set; ARGV: now, the share, the lease's end, its name.
TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(ARGV[3] - ARGV[1]))
return 1
"""


class Kind(StrEnum):
    """What a socket is for: each kind has its own share per person."""

    PLAYING = "playing"
    WATCHING = "watching"
    QUEUE = "queue"


def share(kind: Kind) -> int:
    """How many sockets of ``kind`` one person may hold, across every server process."""
    if kind is Kind.PLAYING:
        return int(settings.TABLE_PLAYING_SOCKETS_PER_USER)
    if kind is Kind.WATCHING:
        return int(settings.TABLE_WATCHING_SOCKETS_PER_USER)
    return int(settings.QUEUE_SOCKETS_PER_USER)


@dataclass(eq=False)
class Pass:
    """One admitted socket's slot and lease, given back with ``release``."""

    kind: Kind
    user_id: int
    # Counted in this process's memory (no Redis).
    in_memory: bool = False
    # The lease in Redis and who holds it; none when Redis was out of reach.
    lease: str = ""
    shares: RedisShares | None = None
    released: bool = False


class _Slots:
    """This process's sockets, of every kind."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.held: Counter[Kind] = Counter()

    def take(self, kind: Kind) -> bool:
        room = settings.TABLE_SOCKETS_PER_SERVER
        if kind is not Kind.PLAYING:
            room -= settings.TABLE_SOCKETS_RESERVED_FOR_PLAYERS
        with self._lock:
            if sum(self.held.values()) >= room:
                return False
            self.held[kind] += 1
            return True

    def give_back(self, kind: Kind) -> None:
        with self._lock:
            self.held[kind] -= 1


class _MemoryShares:
    """Each person's sockets, counted in this process's memory (one server process)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.held: Counter[tuple[Kind, int]] = Counter()

    def take(self, kind: Kind, user_id: int) -> bool:
        with self._lock:
            if self.held[kind, user_id] >= share(kind):
                return False
            self.held[kind, user_id] += 1
            return True

    def give_back(self, kind: Kind, user_id: int) -> None:
        with self._lock:
            self.held[kind, user_id] -= 1
            if self.held[kind, user_id] <= 0:
                del self.held[kind, user_id]


@dataclass
class RedisShares:
    """Each person's sockets, counted in Redis across server processes, for one event loop.

    ``process`` names the leases this object takes; a second object stands
    for another server process.
    """

    url: str
    process: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    # Each person's set -> the names of the leases held in it.
    held: dict[str, set[str]] = field(default_factory=dict)
    client: Any = None
    script: Any = None
    renewal: asyncio.Task[None] | None = None
    _numbers: itertools.count[int] = field(default_factory=itertools.count)

    def _client(self) -> Any:
        if self.client is None:
            import redis.asyncio

            self.client = redis.asyncio.Redis.from_url(self.url, socket_timeout=2)
            self.script = self.client.register_script(TAKE)
        return self.client

    @staticmethod
    def key(kind: Kind, user_id: int) -> str:
        return f"{KEY_PREFIX}:{kind}:{user_id}"

    async def take(self, kind: Kind, user_id: int) -> str | None:
        """A new lease's name; None when the person holds their share already."""
        key = self.key(kind, user_id)
        lease = f"{self.process}:{next(self._numbers)}"
        now = time.time()
        self._client()
        taken = await self.script(keys=[key], args=[now, share(kind), now + LEASE_SECONDS, lease])
        if not taken:
            return None
        self.held.setdefault(key, set()).add(lease)
        if self.renewal is None or self.renewal.done():
            self.renewal = asyncio.get_running_loop().create_task(self._renew_forever())
        return lease

    async def give_back(self, kind: Kind, user_id: int, lease: str) -> None:
        key = self.key(kind, user_id)
        leases = self.held.get(key, set())
        leases.discard(lease)
        if not leases:
            self.held.pop(key, None)
        await self._client().zrem(key, lease)

    async def renew(self) -> None:
        """Push back the end of every lease this object holds, in one round trip."""
        if not self.held:
            return
        end = time.time() + LEASE_SECONDS
        async with self._client().pipeline(transaction=False) as pipe:
            for key, leases in self.held.items():
                pipe.zadd(key, dict.fromkeys(leases, end), xx=True)
                pipe.expire(key, int(LEASE_SECONDS) + 1)
            await pipe.execute()

    async def _renew_forever(self) -> None:
        while self.held:
            await asyncio.sleep(LEASE_SECONDS / 3)
            try:
                await self.renew()
            except Exception:  # the next renewal tries again; a lease outlives two misses
                logger.warning("could not renew %s socket leases in Redis", len(self.held))


_SLOTS = _Slots()
_MEMORY = _MemoryShares()
# Redis clients belong to the event loop that made them.
_redis: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RedisShares] = (
    weakref.WeakKeyDictionary()
)


def _redis_shares() -> RedisShares:
    loop = asyncio.get_running_loop()
    shares = _redis.get(loop)
    if shares is None or shares.url != settings.REDIS_URL:
        shares = _redis[loop] = RedisShares(settings.REDIS_URL)
    return shares


async def admit(user_id: int, kind: Kind) -> Pass | None:
    """A slot of this process and one of ``user_id``'s sockets of ``kind``; None when
    either is full. Give it back with ``release`` when the socket closes."""
    if not _SLOTS.take(kind):
        return None
    if not settings.REDIS_URL:
        if _MEMORY.take(kind, user_id):
            return Pass(kind, user_id, in_memory=True)
        _SLOTS.give_back(kind)
        return None
    shares = _redis_shares()
    try:
        lease = await shares.take(kind, user_id)
    except Exception:
        logger.warning("socket shares: Redis is out of reach; the socket is let in")
        return Pass(kind, user_id)
    if lease is None:
        _SLOTS.give_back(kind)
        return None
    return Pass(kind, user_id, lease=lease, shares=shares)


async def release(admitted: Pass) -> None:
    """Give back the slot and the lease of a socket that closed (once; never raises)."""
    if admitted.released:
        return
    admitted.released = True
    _SLOTS.give_back(admitted.kind)
    if admitted.in_memory:
        _MEMORY.give_back(admitted.kind, admitted.user_id)
    elif admitted.shares is not None:
        with contextlib.suppress(Exception):  # unreturned, it lapses within LEASE_SECONDS
            await admitted.shares.give_back(admitted.kind, admitted.user_id, admitted.lease)


def held() -> dict[Kind, int]:
    """How many sockets of each kind this process holds."""
    return {kind: _SLOTS.held[kind] for kind in Kind}
