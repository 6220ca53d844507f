"""A table page whose socket is refused (4429) says so and tries again, waiting longer each
time, until it is let in (issue 27, H1).

One person opens the same public table in five tabs of one browser: the
server lets TABLE_SOCKETS_PER_USER (4) of them have a socket and refuses the
fifth. That tab shows the note, tries again after about 2 s, 4 s, 8 s...,
and once another tab closes, its next try is let in: the note goes and the
table is live again.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from stacks.servers import Stack
from stacks.tables import PASSWORD, create_user, start_tables
from tests.browser.table_page import log_in

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

PER_MATCH = 4
BUSY = "[data-connection-busy]"
REFUSED = 4429
RECORD = """
window.socketLog = [];
document.addEventListener("htmx:wsConnecting", function () {
  window.socketLog.push({ at: performance.now(), code: null });
});
document.addEventListener("htmx:wsClose", function (event) {
  var code = event.detail.event ? event.detail.event.code : 0;
  window.socketLog.push({ at: performance.now(), code: code });
});
"""


def refusal_waits(page: Page) -> list[float]:
    """Seconds from each refusal (close 4429) to the page's next try."""
    log = page.evaluate("window.socketLog")
    return [
        (later["at"] - earlier["at"]) / 1000
        for earlier, later in itertools.pairwise(log)
        if earlier["code"] == REFUSED and later["code"] is None
    ]


def test_a_refused_table_page_tries_again_later_until_it_is_let_in(
    site: Stack, open_browser: Callable[[str], Page]
) -> None:
    server = site.daphnes[0]
    [table] = start_tables(site, 1, people=(1,), prefix="retry")
    create_user(site, "many-tabs")
    first = open_browser("many-tabs")
    log_in(first, server.url, "many-tabs", PASSWORD)
    url = f"{server.url}/match/{table.match_id}/"
    tabs = [first] + [first.context.new_page() for _ in range(PER_MATCH - 1)]
    for tab in tabs:
        with tab.expect_websocket() as opened:
            tab.goto(url)
        opened.value.wait_for_event("framereceived")
    refused = first.context.new_page()
    # The page's own record of each try and each close, with the close code:
    # a try after a refusal must wait the page's back-off, whereas a socket
    # that drops (1006) is retried by htmx at once and is not a refusal.
    refused.add_init_script(RECORD)
    refused.goto(url)
    refused.locator(BUSY).wait_for(state="visible")
    assert refused.locator("[data-connection]").is_hidden()
    # Three refusals or more, each followed by a wait longer than the one before.
    deadline = time.monotonic() + 30
    while len(refusal_waits(refused)) < 3 and time.monotonic() < deadline:
        refused.wait_for_timeout(200)
    waits = refusal_waits(refused)
    assert len(waits) >= 3, f"the refused page waited {waits} after refusals"
    assert waits[0] >= 0.9, waits
    assert all(later >= earlier for earlier, later in itertools.pairwise(waits)), waits
    # A place frees up: the next try is let in, and the note goes.
    tabs.pop().close()
    refused.locator(BUSY).wait_for(state="hidden", timeout=30_000)
    seq = refused.locator("#table-seq").get_attribute("data-seq")
    assert seq is not None
    print(f"refused page: waits after refusals {[round(w, 1) for w in waits]} s")
