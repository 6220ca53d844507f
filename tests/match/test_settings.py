"""Configuration from the environment: safe defaults, loud failures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from baloot_site import environment

ROOT = Path(__file__).resolve().parents[2]
VARIABLES = (
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
    "CHANNEL_ENCRYPTION_KEY",
    "DJANGO_HTTPS",
)


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter with only ``env`` of the site's variables."""
    clean = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    clean.update(env, DJANGO_SETTINGS_MODULE="baloot_site.settings")
    code = (
        "from django.conf import settings; "
        "print(settings.DEBUG, settings.ALLOWED_HOSTS, settings.DATABASES['default']['ENGINE'], "
        "settings.CHANNEL_LAYERS['default']['BACKEND'], sep='|')"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_debug_is_off_by_default_with_sqlite_and_the_in_memory_layer():
    result = load_settings(DJANGO_SECRET_KEY="k" * 50)
    assert result.returncode == 0, result.stderr
    debug, hosts, engine, layer = result.stdout.strip().split("|")
    assert debug == "False"
    assert hosts == "['localhost', '127.0.0.1', '[::1]']"
    assert engine == "django.db.backends.sqlite3"
    assert layer == "channels.layers.InMemoryChannelLayer"


def test_a_secret_key_is_required_when_debug_is_off():
    result = load_settings()
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr
    result = load_settings(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="   ")
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_environment_drives_hosts_database_and_channel_layer():
    result = load_settings(
        DJANGO_SECRET_KEY="k" * 50,
        DJANGO_ALLOWED_HOSTS="baloot.example, www.baloot.example",
        DATABASE_URL="postgres://user:pw@db.internal:5432/baloot",
        REDIS_URL="redis://cache.internal:6379/1",
        CHANNEL_ENCRYPTION_KEY="c" * 32,
    )
    assert result.returncode == 0, result.stderr
    _debug, hosts, engine, layer = result.stdout.strip().split("|")
    assert hosts == "['baloot.example', 'www.baloot.example']"
    assert engine == "django.db.backends.postgresql"
    assert layer == "baloot_site.channel_layer.SealedPubSubLayer"


def test_a_misspelt_debug_flag_is_an_error():
    result = load_settings(DJANGO_DEBUG="maybe", DJANGO_SECRET_KEY="k" * 50)
    assert result.returncode != 0
    assert "DJANGO_DEBUG='maybe' is not understood" in result.stderr


def test_debug_without_a_key_makes_and_keeps_a_private_development_key(tmp_path):
    key_file = tmp_path / "key"
    key = environment.secret_key({}, debug=True, key_file=key_file)
    assert len(key) >= 50
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert environment.secret_key({}, debug=True, key_file=key_file) == key
    assert environment.secret_key({"DJANGO_SECRET_KEY": "set"}, True, key_file) == "set"
    with pytest.raises(ImproperlyConfigured):
        environment.secret_key({}, debug=False, key_file=key_file)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        ("on", True),
        ("0", False),
        ("", False),
        ("off", False),
    ],
)
def test_flag_words(value, expected):
    assert environment.flag({"X": value}, "X") is expected
    assert environment.flag({}, "X", default=True) is True


def test_database_defaults_to_a_queueing_sqlite_file(tmp_path):
    config = environment.database({}, tmp_path / "db.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(tmp_path / "db.sqlite3")
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        environment.database({"DATABASE_URL": "nosuchdb://x"}, tmp_path / "db.sqlite3")


def test_postgresql_pools_connections_and_lets_the_turns_statements_be_prepared(tmp_path):
    config = environment.database(
        {"DATABASE_URL": "postgres://user:pw@db.internal:5432/baloot"}, tmp_path / "db.sqlite3"
    )
    assert config["OPTIONS"]["pool"]["max_size"] == environment.POSTGRES_POOL_SIZE
    # Django turns preparing off unless told; only server-binding cursors use it.
    assert config["OPTIONS"]["prepare_threshold"] == environment.PREPARE_THRESHOLD


def test_security_defaults_of_the_running_settings():
    assert "django.middleware.csrf.CsrfViewMiddleware" in settings.MIDDLEWARE
    assert "django.middleware.clickjacking.XFrameOptionsMiddleware" in settings.MIDDLEWARE
    assert (
        settings.MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware")
        == settings.MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1
    )
    assert settings.X_FRAME_OPTIONS == "DENY"
    assert settings.SESSION_COOKIE_HTTPONLY
    assert settings.CSRF_COOKIE_HTTPONLY
    assert settings.USE_I18N
    assert settings.LANGUAGE_CODE == "en"
    assert not settings.DEBUG


def test_the_redis_layer_publishes_each_group_message_once_through_pub_sub():
    # The core layer wrote a group message once per member channel, and each
    # process popped one per round trip: its queue grew under load.
    from channels_redis.utils import create_pool

    config = environment.channel_layers({"REDIS_URL": "redis://cache.internal:6379/1"})
    layer = config["default"]
    assert layer["BACKEND"] == "baloot_site.channel_layer.SealedPubSubLayer"
    # The options it would not take: nothing there expires or overflows.
    assert set(layer["CONFIG"]) == {"hosts", "prefix"}
    [host] = layer["CONFIG"]["hosts"]
    assert host["address"] == "redis://cache.internal:6379/1"
    assert 0 < host["socket_timeout"] <= 10
    assert host["max_connections"] >= 100
    # The layer builds its connections from the host as given.
    pool = create_pool(host)
    assert pool.connection_kwargs["socket_timeout"] == host["socket_timeout"]
    assert pool.connection_kwargs["db"] == 1


def test_each_redis_database_index_has_channels_of_its_own():
    # Redis pub/sub ignores the index: without it in the names, two sites
    # (or test runs) on one Redis server would hear each other's matches.
    def prefix(url: str) -> str:
        return environment.channel_layers({"REDIS_URL": url})["default"]["CONFIG"]["prefix"]

    assert prefix("redis://cache.internal:6379/1") == "asgi.1."
    assert prefix("redis://cache.internal:6379") == "asgi.0."
    assert prefix("rediss://user:pw@cache.internal:6380/12") == "asgi.12."
    assert prefix("unix:///run/redis.sock?db=3") == "asgi.3."
    with pytest.raises(ImproperlyConfigured):
        environment.channel_layers({"REDIS_URL": "cache.internal:6379"})


def test_group_memberships_expire_in_minutes_unless_renewed():
    # The in-memory layer keeps a member a day by default: a killed
    # consumer's channel would fill with announcements nobody reads.
    config = environment.channel_layers({})
    assert config["default"]["CONFIG"]["group_expiry"] == 60
    config = environment.channel_layers({"CHANNEL_GROUP_EXPIRY": "300"})
    assert config["default"]["CONFIG"]["group_expiry"] == 300
    with pytest.raises(ImproperlyConfigured):
        environment.group_expiry({"CHANNEL_GROUP_EXPIRY": "1"})


@pytest.mark.parametrize(("value", "expected"), [("0", 0), ("10", 10), (" 19 ", 19)])
def test_a_niceness_is_read_from_0_to_19(value, expected):
    assert environment.niceness({"N": value}, "N", 5) == expected
    assert environment.niceness({}, "N", 5) == 5


@pytest.mark.parametrize("value", ["20", "-1", "ten", "", "1.5"])
def test_a_niceness_outside_0_to_19_is_an_error(value):
    with pytest.raises(ImproperlyConfigured, match="niceness"):
        environment.niceness({"N": value}, "N", 5)
