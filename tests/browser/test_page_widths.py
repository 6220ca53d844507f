"""Every page a player meets around the table fits the screen, in English and Arabic.

A finished match (played through the services by its four players), then the
finished table with its chat and rematch panel, the match page, a replay step,
"My matches", the profile, the lobby and the quick-match queue: at widths 360,
390, 768, 1280 and 1920 with every panel open, the page never scrolls
sideways. Each page leaves screenshots at a phone's and a laptop's width in
``test-artifacts/browser/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from stacks.servers import Daphne, Stack
from stacks.tables import PASSWORD
from tests.browser.table_page import log_in, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

WIDTHS = (360, 390, 768, 1280, 1920)

# Opens every panel and menu on the page, then measures at once; names what
# sticks out, so that a failure says where to look.
OPEN_EVERYTHING_AND_MEASURE = """() => {
  for (const panel of document.querySelectorAll('details')) panel.open = true;
  const width = window.innerWidth;
  const out = [...document.querySelectorAll('body *')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5);
  }).slice(0, 5).map((e) => `${e.tagName}.${e.className}`);
  return {
    open: document.querySelectorAll('details[open]').length,
    scrollWidth: document.documentElement.scrollWidth,
    width, out,
  };
}"""

FINISH_A_MATCH = """
from django.contrib.auth.models import User
from tests.support.drivers import start_match
players = {{
    n: User.objects.create_user(f"{prefix}{{n}}", password={password!r}) for n in (1, 2, 3, 4)
}}
match = start_match(players, mode="quick", seed=3).finish_match()
print("MATCH", match.pk)
"""


def finished_match(site: Stack, prefix: str) -> int:
    """A Quick match its four players (``{prefix}1`` to ``{prefix}4``) played to its winner."""
    output = site.shell(FINISH_A_MATCH.format(prefix=prefix, password=PASSWORD), timeout=600)
    return int(output.split("MATCH", 1)[1].split()[0])


def fits_every_width(page: Page, request: pytest.FixtureRequest, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 768 else 900})
        page.wait_for_timeout(100)
        measured = page.evaluate(OPEN_EVERYTHING_AND_MEASURE)
        assert measured["scrollWidth"] <= measured["width"], (name, width, measured)
        if width in (390, 1280):
            screenshot(page, request, f"{name}-{width}")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_pages_around_a_finished_match_fit_every_width(
    language: str,
    server: Daphne,
    site: Stack,
    open_browser: Callable[[str], Page],
    request: pytest.FixtureRequest,
):
    prefix = f"wide-{language}-"
    match = finished_match(site, prefix)
    page = open_browser(f"pages-{language}")
    log_in(page, server.url, f"{prefix}1", PASSWORD)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])

    page.goto(f"{server.url}/match/{match}/")
    page.locator("#table .match-over").wait_for(timeout=90_000)
    page.locator("#rematch .rematch-panel").wait_for()
    # The last trick stays on the finished table; once its hold and sweep are
    # over (2 s) the page must still answer. Re-marking a swept trick used to
    # wake the page's own observer without end, and Chromium stopped answering.
    page.wait_for_timeout(2_500)
    page.wait_for_function("() => true", timeout=5_000)
    fits_every_width(page, request, "finished-table")

    page.goto(f"{server.url}/matches/{match}/")
    page.locator("#score-sheet").wait_for()
    assert page.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
    fits_every_width(page, request, "match-page")

    # The replay of the first deal played out, with cards on the table and in
    # the hands. The decks differ from run to run (each deal's seed is drawn
    # afresh), and a deal may end at its second action: a hand without points
    # asks for a new deal (the zero-point redeal).
    for deal in range(1, 40):
        page.goto(f"{server.url}/matches/{match}/deals/{deal}/")
        page.locator("#replay").wait_for()
        last = int(page.locator("#replay").get_attribute("data-last-step") or "0")
        if last > 30:
            break
    else:
        raise AssertionError("no deal of the match was played out")
    # Two tricks before the end: cards in every hand and in the list of actions.
    page.goto(f"{server.url}/matches/{match}/deals/{deal}/?step={last - 8}")
    assert page.locator("#replay .replay-seat .hand .card").count() > 0
    assert page.locator("#replay .action-list .card-mini").count() > 0
    fits_every_width(page, request, "replay")

    for name, path in (
        ("my-matches", "/matches/mine/"),
        ("profile", "/accounts/profile/"),
        ("lobby", "/lobby/"),
        ("rules", "/rules/"),
    ):
        page.goto(f"{server.url}{path}")
        page.locator("main").wait_for()
        fits_every_width(page, request, name)

    # Waiting in the quick-match queue.
    page.goto(f"{server.url}/quick/")
    page.locator("form.find-game button[type=submit]").click()
    page.locator(".queue-status .queue-figures").wait_for()
    fits_every_width(page, request, "quick-match")
    page.locator("form[action$='/quick/cancel/'] button").click()
