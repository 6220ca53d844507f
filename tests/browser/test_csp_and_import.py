"""The browser tests' watch on the Content-Security-Policy, and an import followed in a browser.

Every browser test fails when a page breaks the policy (``tests/browser/conftest.py``);
the first test here makes sure that watch sees a violation. The second uploads
a 200-deal document and follows its page, which reloads itself without any
script, until the match is there.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from stacks.documents import long_document
from stacks.servers import Daphne, Stack
from stacks.tables import PASSWORD, create_user
from tests.browser.table_page import log_in

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

INLINE_SCRIPT = """
() => {
  const script = document.createElement("script");
  script.textContent = "document.body.dataset.injected = 'yes'";
  document.body.append(script);
}
"""


def test_a_page_that_breaks_the_policy_is_caught(
    server: Daphne,
    site: Stack,
    open_browser: Callable[[str], Page],
    csp_violations: list[str],
) -> None:
    page = open_browser("csp-probe")
    page.goto(f"{server.url}/accounts/login/")
    page.evaluate(INLINE_SCRIPT)
    deadline = time.monotonic() + 10
    while not csp_violations and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    # The policy blocked the inline script, and the watch saw it.
    assert page.evaluate("() => document.body.dataset.injected") is None
    assert any("script-src" in v for v in csp_violations), csp_violations
    # Caught on purpose: this test must not fail for it.
    csp_violations.clear()


def test_an_import_is_followed_until_its_match_opens(
    server: Daphne, site: Stack, open_browser: Callable[[str], Page], tmp_path: Path
) -> None:
    create_user(site, "archivist")
    document = tmp_path / "long-match.json"
    document.write_text(long_document(200))
    page = open_browser("archivist")
    log_in(page, server.url, "archivist", PASSWORD)
    page.goto(f"{server.url}/matches/import/")
    page.set_input_files("input[name=document]", str(document))
    page.click("main form button[type=submit]")
    page.wait_for_url("**/matches/import/*/")
    assert "deals stored" in page.inner_text("main")
    # The page reloads itself until the worker has stored every deal.
    page.wait_for_url(re.compile(r".*/matches/[0-9]+/$"), timeout=240_000)
    assert "The match was imported." in page.inner_text("main")
