"""Test-suite wide rules: which tests use the database, and what a missing service means.

Tests that need PostgreSQL (marker ``postgres``), Redis (marker ``redis``) or
Chromium and Playwright (marker ``browser``) fail when CI=true and the service
is missing, and are skipped with the reason elsewhere. Every test that touches
the database gets the ``database`` marker, so that ``scripts/test.sh`` can run
exactly those again on PostgreSQL. The checks themselves are in
``tests/support/services.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from games.match import services
from tests.support.deals import seed_deals
from tests.support.drivers import start_with_bots
from tests.support.players import create_player, four_players
from tests.support.services import browser_problem, reachable, redis_url, service_missing

DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences"})


@pytest.fixture(autouse=True)
def _test_settings(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Unhashed static names (tests run without collectstatic) and a fast password hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # An existing, empty collected-files folder: whitenoise warns about a missing one.
    settings.STATIC_ROOT = tmp_path_factory.getbasetemp() / "staticfiles"
    settings.STATIC_ROOT.mkdir(exist_ok=True)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fresh_rate_counters() -> Any:
    """Empty the cache that holds the rate limits' counters, before and after each test.

    The counters live in the process's memory cache in tests, so without
    this one test's sign-ups would count against the next test's.
    """
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the default language, whatever the last request switched to.

    Django's locale middleware leaves the language of a request's thread
    active after the response, so a page asked for in Arabic would leak into
    the next test's labels.
    """
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test plays the same cards on every run (a folder may pick another seed)."""
    seed_deals(monkeypatch)


@pytest.fixture
def make_user(db: None) -> Any:
    """``make_user(name)``: a player who can log in."""
    return create_player


@pytest.fixture
def players(db: None) -> dict[int, User]:
    """Four players; seat n is meant for players[n]."""
    return four_players()


@pytest.fixture
def start_table(players: dict[int, User]) -> Any:
    """``start_table(bots=(2, 4), **settings)``: a started table, bots in the seats listed."""

    def start(bots: tuple[int, ...] = (), **settings: Any) -> services.Outcome:
        return start_with_bots(players, bots, **settings)

    return start


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        uses_database = item.get_closest_marker("django_db") is not None or bool(
            DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        )
        if uses_database:
            item.add_marker(pytest.mark.database)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") is not None:
        from django.db import connection

        if connection.vendor != "postgresql":
            service_missing("PostgreSQL is needed: DATABASE_URL does not point at PostgreSQL")
    if item.get_closest_marker("redis") is not None:
        url = redis_url()
        if not reachable(url):
            service_missing(f"Redis is needed: nothing answers at {url}")
    if item.get_closest_marker("browser") is not None:
        problem = browser_problem()
        if problem:
            service_missing(problem)
