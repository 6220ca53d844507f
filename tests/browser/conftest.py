"""Fixtures of the browser tests: the site as ``make run`` serves it, and Chromium.

The server is the embedded default (one daphne process on a SQLite file
with the in-memory channel layer, and the worker beside it), started with
DEBUG off. Each browser is a fresh context (profile) of Debian's Chromium,
driven by Playwright and started once per module (the ``chromium`` fixture
of ``tests/conftest.py``); when a test ends, every page it opened is saved as a
screenshot under ``test-artifacts/browser/`` so a person can look at the
final state.

The site's Content-Security-Policy is on, as in production, and every
browser collects what the pages report breaking it: Chromium's console
messages about the policy and each ``securitypolicyviolation`` event. A
test whose pages broke the policy fails, naming the violations.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from stacks.servers import Daphne, Stack
from tests.browser.table_page import ARTIFACTS

if TYPE_CHECKING:
    # Imported when the tests run: without Playwright they are skipped, not broken.
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Page,
        ViewportSize,
    )

# Reports every violation of the page's Content-Security-Policy on the console,
# where the collector below reads it. Playwright adds it to each document
# through the browser's protocol, so the policy does not block it.
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(
    "CSP violation: " + event.violatedDirective + " blocked " +
    (event.blockedURI || "inline") + " at " + event.sourceFile + ":" + event.lineNumber
  );
});
"""
CSP_MESSAGE = re.compile(r"Content Security Policy|CSP violation", re.IGNORECASE)
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


@pytest.fixture
def csp_violations() -> list[str]:
    """What the test's pages reported breaking the Content-Security-Policy, as they go."""
    return []


@pytest.fixture
def open_browser(
    chromium: Browser,
    request: pytest.FixtureRequest,
    csp_violations: list[str],
) -> Iterator[Callable[[str], Page]]:
    """Opens a fresh browser profile (a context of the run's Chromium); returns its page.
    Screenshots each page at the end, and fails the test if any page broke the
    Content-Security-Policy."""
    contexts: list[tuple[str, BrowserContext]] = []
    violations = csp_violations

    def watch(name: str, page: Page) -> None:
        def on_console(message: ConsoleMessage) -> None:
            if CSP_MESSAGE.search(message.text):
                violations.append(f"{name} at {page.url}: {message.text}")

        page.on("console", on_console)

    def open_one(name: str) -> Page:
        context = chromium.new_context(viewport=VIEWPORT)
        context.set_default_timeout(30_000)
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        context.on("page", lambda page: watch(name, page))
        contexts.append((name, context))
        return context.new_page()

    yield open_one
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    test = re.sub(r"[^\w.-]+", "-", request.node.name)
    for name, context in contexts:
        for number, page in enumerate(context.pages):
            suffix = f"-{number}" if number else ""
            page.screenshot(path=str(ARTIFACTS / f"{test}-{name}{suffix}.png"), full_page=True)
        context.close()
    assert violations == [], "the pages broke the Content-Security-Policy:\n" + "\n".join(
        violations[:20]
    )
