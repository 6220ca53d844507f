"""Whether the services some tests need are here, and what their absence means.

Tests that need PostgreSQL, Redis or Chromium and Playwright fail when
CI=true and the service is missing, and are skipped with the reason elsewhere.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

import pytest

from stacks.browser import CHROMIUM

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


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
