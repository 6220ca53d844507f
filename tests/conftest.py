"""Test-suite wide rules: which tests use the database, and what a missing service means.

Tests that need PostgreSQL (marker ``postgres``), Redis (marker ``redis``) or
Chromium and Playwright (marker ``browser``) fail when CI=true and the service
is missing, and are skipped with the reason elsewhere. Every test that touches
the database gets the ``database`` marker, so that ``scripts/test.sh`` can run
exactly those again on PostgreSQL.
"""

from __future__ import annotations

import os
import socket
from typing import Any
from urllib.parse import urlsplit

import pytest

DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences"})
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# Debian's Chromium: the browser tests drive this one, never a downloaded build.
CHROMIUM = "/usr/bin/chromium"


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


def service_missing(reason: str) -> None:
    """Fail under CI=true, where every service must be there; skip elsewhere."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true requires it)", pytrace=False)
    pytest.skip(f"{reason}; service unavailable here, so skipped (CI=true would fail)")


def redis_url() -> str:
    """The Redis the Redis tests use: REDIS_URL, or the local default."""
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def reachable(url: str) -> bool:
    """True when something accepts TCP connections at the URL's host and port."""
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 3):
            return True
    except OSError:
        return False


def browser_problem() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"Chromium is needed: {CHROMIUM} is missing (scripts/chromium.sh installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is needed: install requirements-dev.txt"
    return None
