"""A table page whose server is killed shows "reconnecting…" and comes back with its
server; while its socket is down, its actions still go through.

Chromium (Playwright) opens the table page on the production layout. Its
server is killed with kill -9 a few times and started again after a few
seconds each time (long enough for an exponential backoff to grow); the
page's socket reopens once the server answers, its notice goes away and the
page shows the match as it is now. The page's retry policy never waits
longer than 1.5 s between attempts, so it is back about that soon after
its server; ``bench/restart_bench.py`` measures how soon over ten crashes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from stacks.servers import ROOT, Stack
from stacks.tables import PASSWORD, abort, match_seq, start_tables

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocketRoute

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.browser]

CRASHES = 3
# The bound of every wait: it only catches a page that hangs.
HANG_MS = 60_000
# The longest wait between two attempts to reconnect (static/js/table.js).
LONGEST_RETRY_MS = 1500
ARTIFACTS = ROOT / "test-artifacts" / "browser"
# Records when the page's socket opens and closes, on the page's own clock
# (the same machine's clock as the test's).
WATCH_SOCKET = """
window.socketLog = {opens: [], closes: [], codes: []};
document.addEventListener('htmx:wsOpen', () => window.socketLog.opens.push(Date.now() / 1000));
document.addEventListener('htmx:wsClose', (e) => {
  window.socketLog.closes.push(Date.now() / 1000);
  window.socketLog.codes.push(e.detail.event.code);
});
"""


@pytest.fixture
def table_page(chromium: Browser) -> Iterator[Page]:
    context = chromium.new_context(
        viewport={"width": 1280, "height": 800},
        # The site's CSP forbids eval, which Playwright's waits use.
        bypass_csp=True,
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.add_init_script(WATCH_SOCKET)
    try:
        yield page
    finally:
        context.close()


def open_table(page: Page, base_url: str, username: str, match_id: int) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/accounts/profile/")
    page.goto(f"{base_url}/match/{match_id}/")
    page.wait_for_function("window.socketLog.opens.length > 0")


def shown_seq(page: Page) -> int:
    return int(page.get_attribute("#table", "data-seq") or -1)


def opens(page: Page) -> list[float]:
    return list(page.evaluate("window.socketLog.opens"))


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"reconnect-{name}.png"), full_page=False)


def test_a_page_comes_back_with_its_server(
    postgres_url: str, redis_url: str, tmp_path: Path, table_page: Page
):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    stack = Stack(postgres_url, redis_url, tmp_path, servers=2, workers=1, bot_delay=0.5)
    stack.prepare()
    stack.start()
    victim = stack.daphnes[0]
    rng = random.Random()
    try:
        [table] = start_tables(stack, 1, (1,), prefix="reconnect")
        pk = table.match_id
        open_table(table_page, victim.url, "reconnect0s1", pk)
        # However many attempts failed, the next comes within 1.5 s: the
        # extension's own backoff, which grows to a minute, is replaced.
        waits = table_page.evaluate(
            "[...Array(2000).keys()].map(n => htmx.config.wsReconnectDelay(n % 40))"
        )
        assert min(waits) >= 0
        assert max(waits) <= LONGEST_RETRY_MS
        banner = table_page.locator("[data-connection]")
        for crash in range(1, CRASHES + 1):
            time.sleep(rng.uniform(0.2, 1.0))
            before = len(opens(table_page))
            victim.kill()
            banner.wait_for(state="visible", timeout=HANG_MS)
            if crash == 1:
                screenshot(table_page, "down-desktop-en")
            # The table stays on the page, readable, while the socket is down.
            assert table_page.locator("#table").is_visible()
            # Long enough for the extension's own backoff to grow to seconds.
            time.sleep(rng.uniform(2.0, 6.0))
            victim.start()
            while not victim.answers():
                assert victim.alive, victim.tail()
                time.sleep(0.02)
            try:
                table_page.wait_for_function(
                    f"window.socketLog.opens.length > {before}", timeout=HANG_MS
                )
            except PlaywrightTimeout:
                log = table_page.evaluate("window.socketLog")
                raise AssertionError(
                    f"crash {crash}: the page never reconnected; close codes {log['codes']}\n"
                    f"{victim.tail()}"
                ) from None
            banner.wait_for(state="hidden", timeout=HANG_MS)
            # Resynchronised on connecting: the page shows the match as it is now.
            table_page.wait_for_function(
                f"Number(document.querySelector('#table').dataset.seq) >= {match_seq(stack, pk)}",
                timeout=HANG_MS,
            )
        abort(stack, [pk])
    finally:
        stack.stop()
    assert stack.tracebacks() == []


def test_actions_go_through_while_the_socket_is_down(
    postgres_url: str, redis_url: str, tmp_path: Path, table_page: Page
):
    # No worker: nothing forces the turn while the test reads the page.
    stack = Stack(postgres_url, redis_url, tmp_path, servers=1, workers=0)
    stack.prepare()
    stack.start()
    [server] = stack.daphnes
    blocked = True

    def sockets(route: WebSocketRoute) -> None:
        if blocked:
            # As a server that went away would: the page keeps retrying.
            route.close(code=1011, reason="away")
        else:
            route.connect_to_server()

    try:
        [table] = start_tables(stack, 1, (1, 2, 3, 4), prefix="offline", can_log_in=True)
        pk = table.match_id
        table_page.route_web_socket("**/ws/match/**", sockets)
        table_page.goto(f"{server.url}/accounts/login/")
        table_page.fill("input[name=username]", f"offline0s{table.turn}")
        table_page.fill("input[name=password]", PASSWORD)
        table_page.click("main form button[type=submit]")
        table_page.wait_for_url("**/accounts/profile/")
        table_page.goto(f"{server.url}/match/{pk}/")
        banner = table_page.locator("[data-connection]")
        banner.wait_for(state="visible")
        seq = shown_seq(table_page)
        # The turn's first choice, posted over HTTP: the answer updates the table.
        table_page.locator("#table .controls button[name=action]").first.click()
        table_page.wait_for_function(
            f"Number(document.querySelector('#table').dataset.seq) > {seq}", timeout=HANG_MS
        )
        assert shown_seq(table_page) == match_seq(stack, pk)
        assert banner.is_visible()
        screenshot(table_page, "acted-offline-desktop-en")
        table_page.set_viewport_size({"width": 390, "height": 844})
        screenshot(table_page, "acted-offline-phone-en")
        # The notice in Arabic, on a reload while the socket is still down.
        table_page.context.add_cookies(
            [{"name": "django_language", "value": "ar", "url": server.url}]
        )
        table_page.reload()
        banner.wait_for(state="visible")
        assert banner.inner_text() == "جارٍ إعادة الاتصال…"
        screenshot(table_page, "offline-phone-ar")
        table_page.set_viewport_size({"width": 1280, "height": 800})
        screenshot(table_page, "offline-desktop-ar")

        blocked = False
        banner.wait_for(state="hidden", timeout=HANG_MS)
        abort(stack, [pk])
    finally:
        stack.stop()
    assert stack.tracebacks() == []
