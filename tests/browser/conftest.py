"""Fixtures of the browser tests: the site as ``make run`` serves it, and Chromium.

The server is the embedded default (one daphne process on a SQLite file
with the in-memory channel layer, and the worker beside it), started with
DEBUG off. Each browser is Debian's Chromium driven by Playwright, with a
fresh profile; when a test ends, every page it opened is saved as a
screenshot under ``test-artifacts/browser/`` so a person can look at the
final state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.table_page import ARTIFACTS
from tests.support.servers import Daphne, Stack
from tests.support.services import CHROMIUM

if TYPE_CHECKING:
    # Imported when the tests run: without Playwright they are skipped, not broken.
    from playwright.sync_api import BrowserContext, Page, Playwright, ViewportSize

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Room for the table and its side panels, as on a laptop.
VIEWPORT: ViewportSize = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The embedded default, with bots quick enough for a test to watch a whole match."""
    workdir = Path(tmp_path_factory.mktemp("browser-site"))
    stack = Stack(
        f"sqlite:///{workdir / 'db.sqlite3'}",
        None,
        workdir,
        servers=1,
        workers=0,
        bot_delay=0.05,
    )
    stack.prepare()
    stack.start()
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def server(site: Stack) -> Daphne:
    return site.daphnes[0]


@pytest.fixture(scope="module")
def playwright_driver() -> Iterator[Playwright]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def open_browser(
    playwright_driver: Playwright, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[[str], Page]]:
    """Opens a browser with a fresh profile; returns its page. Screenshots each page at the end."""
    contexts: list[tuple[str, BrowserContext]] = []

    def open_one(name: str) -> Page:
        context = playwright_driver.chromium.launch_persistent_context(
            str(tmp_path / f"profile-{name}"),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport=VIEWPORT,
        )
        context.set_default_timeout(30_000)
        contexts.append((name, context))
        return context.pages[0] if context.pages else context.new_page()

    yield open_one
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    test = re.sub(r"[^\w.-]+", "-", request.node.name)
    for name, context in contexts:
        for number, page in enumerate(context.pages):
            suffix = f"-{number}" if number else ""
            page.screenshot(path=str(ARTIFACTS / f"{test}-{name}{suffix}.png"), full_page=True)
        context.close()
