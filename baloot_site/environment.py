"""Reading the site's configuration from environment variables.

Every function takes the environment as a mapping so that the rules can be
tested without touching ``os.environ``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

# Django's own check (security.W009) asks for at least 50 characters.
MIN_SECRET_KEY_LENGTH = 50
# A django-ratelimit rate: a count, a slash and a period (s, m, h or d).
RATE = re.compile(r"^[1-9][0-9]*/[0-9]*[smhd]$")

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"", "0", "false", "no", "off"})


def flag(env: Mapping[str, str], name: str, default: bool = False) -> bool:
    """Read a yes/no variable; raises ImproperlyConfigured on a word that is neither."""
    if name not in env:
        return default
    word = env[name].strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={env[name]!r} is not understood: use 1/true/yes/on or 0/false/no/off."
    )


def word_list(env: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; an unset variable gives ``default``."""
    if name not in env:
        return list(default)
    return [item.strip() for item in env[name].split(",") if item.strip()]


def seconds(env: Mapping[str, str], name: str, default: float) -> float:
    """Read a duration in seconds; raises ImproperlyConfigured unless it is a number >= 0."""
    if name not in env:
        return default
    try:
        value = float(env[name])
    except ValueError:
        value = math.nan
    if not 0 <= value < math.inf:
        raise ImproperlyConfigured(f"{name}={env[name]!r} is not a number of seconds (0 or more).")
    return value


def count(env: Mapping[str, str], name: str, default: int) -> int:
    """Read a whole number of at least 1; raises ImproperlyConfigured for anything else."""
    if name not in env:
        return default
    text = env[name].strip()
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ImproperlyConfigured(f"{name}={env[name]!r} is not a whole number of 1 or more.")
    return int(text)


def niceness(env: Mapping[str, str], name: str, default: int) -> int:
    """Read a scheduling niceness from 0 (as the servers) to 19 (the lowest priority);
    raises ImproperlyConfigured for anything else."""
    if name not in env:
        return default
    text = env[name].strip()
    if not (text.isascii() and text.isdigit()) or int(text) > 19:
        raise ImproperlyConfigured(f"{name}={env[name]!r} is not a niceness from 0 to 19.")
    return int(text)


def secret_key(env: Mapping[str, str], debug: bool, key_file: Path) -> str:
    """The secret key from DJANGO_SECRET_KEY, or a development key kept in ``key_file``.

    Raises ImproperlyConfigured when DEBUG is off and no key is set, because a
    production site must never run on a key that was made up on the spot.
    """
    key = env.get("DJANGO_SECRET_KEY", "").strip()
    if key:
        return key
    if not debug:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. A site running with DJANGO_DEBUG off needs a "
            "long random secret key: set DJANGO_SECRET_KEY (for example to the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`), or set "
            "DJANGO_DEBUG=1 for local development."
        )
    if key_file.exists():
        return key_file.read_text().strip()
    key = get_random_secret_key()
    # The file holds a secret: create it readable by its owner only.
    key_file.touch(mode=0o600)
    key_file.write_text(key + "\n")
    return key


# Connections one server or worker process keeps open to PostgreSQL at most.
POSTGRES_POOL_SIZE = 20
# psycopg's own default: a statement run this often through a cursor that binds
# server-side is prepared (games.match.rows asks for it at the first run).
PREPARE_THRESHOLD = 5


def secret_key_fallbacks(env: Mapping[str, str]) -> list[str]:
    """Previous secret keys from DJANGO_SECRET_KEY_FALLBACKS (comma-separated), newest first."""
    return word_list(env, "DJANGO_SECRET_KEY_FALLBACKS", [])


def require_strong_keys(key: str, fallbacks: list[str], debug: bool) -> None:
    """Refuse to serve with DEBUG off on a key (or previous key) shorter than 50 characters.

    Called when the server starts (``baloot_site.asgi``), not when settings
    load, so that commands such as ``makemessages`` still run on a short
    throwaway key. Raises ImproperlyConfigured.
    """
    if debug:
        return
    named = [("DJANGO_SECRET_KEY", key)] + [
        (f"key {number} of DJANGO_SECRET_KEY_FALLBACKS", old)
        for number, old in enumerate(fallbacks, start=1)
    ]
    for name, value in named:
        if len(value) < MIN_SECRET_KEY_LENGTH:
            raise ImproperlyConfigured(
                f"{name} is {len(value)} characters long; a site running with DJANGO_DEBUG "
                f"off needs at least {MIN_SECRET_KEY_LENGTH} random characters "
                "(`python -c 'import secrets; print(secrets.token_urlsafe(50))'`)."
            )


def rates(env: Mapping[str, str], defaults: Mapping[str, str]) -> dict[str, str]:
    """Rate limits by name, each overridable as RATE_LIMITS_<NAME> ("20/h").

    Raises ImproperlyConfigured on a rate django-ratelimit would not understand.
    """
    chosen = {}
    for name, default in defaults.items():
        variable = f"RATE_LIMITS_{name}"
        rate = env.get(variable, default).strip()
        if not RATE.match(rate):
            raise ImproperlyConfigured(
                f"{variable}={rate!r} is not a rate: write a count and a period, like 20/h."
            )
        chosen[name] = rate
    return chosen


def caches(env: Mapping[str, str]) -> dict[str, Any]:
    """Django's Redis cache when REDIS_URL is set, otherwise the memory of one process."""
    url = env.get("REDIS_URL", "").strip()
    if not url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "baloot",
        }
    }


def database(env: Mapping[str, str], default_sqlite: Path) -> dict[str, Any]:
    """The default database from DATABASE_URL, or a SQLite file at ``default_sqlite``."""
    url = env.get("DATABASE_URL", "").strip() or f"sqlite:///{default_sqlite}"
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url))
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database address: {error}") from error
    # ASGI serves each request from a thread of its own, so a connection kept
    # by a thread would serve one request only: connections are closed after
    # each request (CONN_MAX_AGE 0) and, on PostgreSQL, handed back to a pool
    # that keeps them open and checks each one before lending it again.
    config["CONN_MAX_AGE"] = 0
    if config["ENGINE"] == "django.db.backends.postgresql":
        # With a pool, Django has it check each connection before lending it.
        config["CONN_HEALTH_CHECKS"] = True
        config.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": POSTGRES_POOL_SIZE,
            "timeout": 30,
        }
        # The statements every turn runs (games.match.rows) are prepared once
        # per connection; Django leaves preparing off (for external poolers,
        # which this site does not use), and its own cursors, which bind the
        # values into the text, never prepare whatever this says.
        config["OPTIONS"]["prepare_threshold"] = PREPARE_THRESHOLD
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = {
            # Take the write lock when a transaction starts, so that writers
            # queue up instead of failing with "database is locked" when a
            # read lock cannot be upgraded; WAL lets readers go on meanwhile.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL;",
        }
    return config


# A connection to Redis, or its answer to a publish, that takes longer than
# this means Redis is gone: the send fails, and the outbox relays the
# announcement later. The pub/sub layer publishes one message at a time per
# event loop, so one stalled publish holds up every page of the process for
# this long. Waiting for pushed messages is not bounded by it: the layer
# polls its subscriptions with a timeout of its own.
REDIS_SOCKET_TIMEOUT = 5
# redis-py 8 caps a connection pool at 100 connections and fails the next at
# once. The pub/sub layer needs two per event loop (one subscribed, one to
# publish), so this is only a bound that no process reaches.
REDIS_MAX_CONNECTIONS = 1000
# A channel stays in a group this long after it last joined, in the layers
# that forget members (the in-memory one, and channels_redis's core layer
# when settings choose it; channels' own default is a day). Live consumers
# join again every third of it (games.match.memberships), so only the
# channels of a process that died without leaving drop out.
DEFAULT_GROUP_EXPIRY = 60.0


def group_expiry(env: Mapping[str, str]) -> int:
    """Whole seconds a group membership lasts unless renewed (CHANNEL_GROUP_EXPIRY).

    Raises ImproperlyConfigured for anything under 3 seconds, too short to renew.
    """
    value = seconds(env, "CHANNEL_GROUP_EXPIRY", DEFAULT_GROUP_EXPIRY)
    if value < 3:
        raise ImproperlyConfigured(f"CHANNEL_GROUP_EXPIRY={value!r} is under 3 seconds.")
    return int(value)


def redis_index(url: str) -> int:
    """The database index REDIS_URL ``url`` names; raises ImproperlyConfigured."""
    from redis.connection import parse_url

    try:
        return int(parse_url(url).get("db") or 0)
    except ValueError as error:
        raise ImproperlyConfigured(f"REDIS_URL={url!r} is not a Redis URL: {error}") from None


def channel_prefix(url: str) -> str:
    """The prefix of every Redis channel the layer publishes on for REDIS_URL ``url``.

    Redis's pub/sub ignores the database index: a message published while
    using database 1 reaches subscribers using database 2. The index goes
    into the channel names, so that sites (or test runs) sharing one Redis
    server on different indexes do not hear each other's messages. It is no
    wall: any client of the server may subscribe to every channel, which is
    why the layer's messages are encrypted (``channel_encryption_keys``).
    """
    return f"asgi.{redis_index(url)}."


# A channel-layer key shorter than this is refused with DEBUG off.
MIN_CHANNEL_KEY_LENGTH = 32


def channel_encryption_keys(env: Mapping[str, str]) -> list[str]:
    """The channel layer's keys from CHANNEL_ENCRYPTION_KEY (comma-separated, the key
    to encrypt with first, then earlier ones still accepted during a rotation)."""
    return word_list(env, "CHANNEL_ENCRYPTION_KEY", [])


def require_channel_encryption(env: Mapping[str, str], debug: bool) -> None:
    """Refuse a site on Redis with DEBUG off whose channel layer would not be encrypted.

    Every message between the server processes goes through Redis, where any
    client of the server (whatever its database index) can read it with
    PSUBSCRIBE and publish its own. Raises ImproperlyConfigured when REDIS_URL
    is set and CHANNEL_ENCRYPTION_KEY is missing or holds a key shorter than
    32 characters.
    """
    if debug or not env.get("REDIS_URL", "").strip():
        return
    keys = channel_encryption_keys(env)
    if not keys:
        raise ImproperlyConfigured(
            "CHANNEL_ENCRYPTION_KEY is not set. With REDIS_URL set and DJANGO_DEBUG off, "
            "the messages between the server processes go through Redis and must be "
            "encrypted: set CHANNEL_ENCRYPTION_KEY to a long random key, the same for every "
            "process of the site (`python -c 'import secrets; print(secrets.token_urlsafe(32))'`)."
        )
    for number, key in enumerate(keys, start=1):
        if len(key) < MIN_CHANNEL_KEY_LENGTH:
            raise ImproperlyConfigured(
                f"Key {number} of CHANNEL_ENCRYPTION_KEY is {len(key)} characters long; "
                f"it needs at least {MIN_CHANNEL_KEY_LENGTH} random characters."
            )


def channel_layers(env: Mapping[str, str]) -> dict[str, Any]:
    """channels_redis's pub/sub layer when REDIS_URL is set, otherwise the in-memory layer.

    Why pub/sub: channels_redis's core layer writes a group message once per
    member channel, into one Redis list per server process, and each process
    pops one message per Redis round trip: at a few hundred tables its
    queue only grew, and pushes waited behind it (measured in
    docs/performance.md, ``bench/live_bench.py --stack production``).
    The pub/sub layer publishes a group message once; Redis hands it to each
    process subscribed to the group, which puts it in the queue of each of
    its own members, in memory. A membership is a subscription of the
    process's connection, so it ends with that connection: no expiry, and a
    killed process leaves no members behind.

    What it gives up: there is no queue in Redis for a channel, so nothing
    is kept for a process that is not connected at the time. A message
    published while a process's subscriptions are down (Redis restarting,
    the connection dropped, until redis-py reconnects and subscribes again)
    never reaches that process's sockets. Announcements cover that
    themselves: one that could not be published stays in the outbox and the
    worker relays it (games.match.broadcast); a push missed all the same is
    healed by the next one, which carries the match as it is, or by the
    page's report every 15 s, which makes the socket read the match when
    it moved on meanwhile (games.table.consumers ``receive``).

    With CHANNEL_ENCRYPTION_KEY set, every message is encrypted with it
    (``require_channel_encryption`` makes it required in production).
    """
    url = env.get("REDIS_URL", "").strip()
    if not url:
        return {
            "default": {
                "BACKEND": "channels.layers.InMemoryChannelLayer",
                "CONFIG": {"group_expiry": group_expiry(env)},
            }
        }
    config: dict[str, Any] = {
        "hosts": [
            {
                "address": url,
                "socket_timeout": REDIS_SOCKET_TIMEOUT,
                "max_connections": REDIS_MAX_CONNECTIONS,
            }
        ],
        "prefix": channel_prefix(url),
    }
    keys = channel_encryption_keys(env)
    if keys:
        config["symmetric_encryption_keys"] = keys
    # channels_redis's pub/sub layer, dropping what it cannot read (baloot_site.channel_layer).
    return {"default": {"BACKEND": "baloot_site.channel_layer.SealedPubSubLayer", "CONFIG": config}}
