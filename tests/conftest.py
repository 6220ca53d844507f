"""Test-suite wide rules: which tests use the database, and what a missing service means.

Tests that need PostgreSQL (marker ``postgres``), Redis (marker ``redis``) or
Chromium and Playwright (marker ``browser``) fail when CI=true and the service
is missing, and are skipped with the reason elsewhere. The checks themselves
are in ``tests/support/services.py``.

Markers added here, by where a test lives:

- ``database``: the test touches the database.
- ``vendor``: the test's module is in ``VENDOR_MODULES``, whose behaviour can
  differ between SQLite and PostgreSQL; ``scripts/test.sh`` runs these (and
  the ``postgres`` ones) again on PostgreSQL.
- ``realworld``: the test starts the site's own processes (``REALWORLD``);
  ``make check`` leaves these out, with the browser and soak tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from games.match import services
from stacks.browser import CHROMIUM, CHROMIUM_ARGS
from tests.support.deals import seed_deals
from tests.support.drivers import start_with_bots
from tests.support.players import create_player, four_players
from tests.support.services import browser_problem, reachable, redis_url, service_missing

if TYPE_CHECKING:
    from playwright.sync_api import Browser

DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences"})
# The modules whose behaviour can differ by database, and why: each runs on
# SQLite with the rest, then again on PostgreSQL. Every other database test
# goes through the ORM's portable queries alone, so a second run proves nothing.
VENDOR_MODULES = {
    # Locking, transactions and concurrent writers.
    "match/test_concurrency.py": "concurrent submissions lock the match row: one event",
    "match/test_services.py": "the service layer's transactions and row statements",
    "match/test_bad_input.py": "a refused action rolls its transaction back",
    "table/test_act_endpoint.py": "repeated and stale posts append one event",
    "worker/test_advance_due.py": "workers claim due turns with row locks (SKIP LOCKED)",
    "worker/test_in_server.py": "the worker inside the server writes from its own thread",
    "worker/test_outage.py": "the worker's pass survives a database that goes away",
    "social/test_queue.py": "parallel joins of the quick-match queue",
    "hardening/test_background_import.py": "imports stored a few deals per transaction",
    # Raw SQL statements.
    "worker/test_combined_writes.py": "one raw statement writes several rows",
    "worker/test_outbox.py": "the outbox's raw insert and delete",
    "match/test_log_check.py": "the log's unique constraint and its check",
    # JSON columns and index queries.
    "match/test_snapshots.py": "snapshots stored as JSON and read back",
    "match/test_loading.py": "the state loaded from a snapshot and the events after it",
    "match/test_commands.py": "management commands that read every match",
    "history/test_notation_transfer.py": "notation documents stored as JSON",
    "worker/test_deadlines.py": "due turns found by the deadline index",
    "ratings/test_leaderboard.py": "the leaderboard's ordered, indexed query",
    "ratings/test_ratings.py": "ratings written at a match's end, in its transaction",
    # Query counts, which depend on the backend's statements.
    "table/test_pushes.py": "queries per push",
    "table/test_reading.py": "queries per reading of a match",
    "table/test_steps.py": "pushes drawn from steps equal drawings from the database",
    "history/test_match_page.py": "queries per match page",
    "history/test_replay.py": "queries per replay",
    "ratings/test_pages.py": "queries per ratings page",
    "ratings/test_profile.py": "queries per profile",
    # The health page asks the database itself.
    "hardening/test_health.py": "the health page's database check",
}
# Tests that start the site's own processes: servers, workers, nginx.
REALWORLD = (
    "realworld/",
    "worker/test_worker_process.py",
    "worker/test_run_script.py",
    "hardening/test_serve.py",
)
TESTS = Path(__file__).resolve().parent


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


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, started once per module; each test opens its own contexts.

    A context is a fresh profile (cookies, storage, cache) in the running
    browser, so tests stay apart without paying a browser start each. Not
    once per session: Playwright's synchronous driver marks its event loop
    as the thread's running loop while it is open, so Django's async-safety
    checks and every asyncio test after it in the same process would fail.
    """
    problem = browser_problem()
    if problem:
        service_missing(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


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
        where = item.path.relative_to(TESTS).as_posix()
        if uses_database and where in VENDOR_MODULES:
            item.add_marker(pytest.mark.vendor)
        if where.startswith(REALWORLD):
            item.add_marker(pytest.mark.realworld)


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
