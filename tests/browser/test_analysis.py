"""The deal analysis in a real browser: the embedded server's worker plays a bot match
and analyses its first deal in the background; the replay and the match page show it,
on a laptop and on a phone, in English and in Arabic, under the site's CSP. Screenshots
are left in ``test-artifacts/browser/`` for a person to look at."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from stacks.servers import Daphne, Stack
from stacks.tables import PASSWORD, create_user
from tests.browser.table_page import ARTIFACTS, log_in
from tests.support.processes import start_bot_matches, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Page

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def analysed_deal(site: Stack, match_id: int) -> tuple[int, list[dict[str, Any]]]:
    """The first deal of the match with cards played, once the worker has analysed it."""
    found: list[tuple[int, list[dict[str, Any]]]] = []

    def ready() -> bool:
        rows = site.rows(
            "SELECT number, plays FROM games_dealanalysis WHERE match_id = %s ORDER BY number",
            match_id,
        )
        for number, plays in rows:
            plays = json.loads(plays) if isinstance(plays, str) else plays
            if plays:
                found.append((number, plays))
                return True
        return False

    wait_until(ready, 400, "the worker's analysis of a finished deal")
    return found[0]


def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(ARTIFACTS / f"analysis-{name}-{size}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def recorder(seen: list[str]) -> Callable[[ConsoleMessage], None]:
    """Keeps the text of each message the page logs to its console in ``seen``."""
    return lambda message: seen.append(message.text)


def test_the_analysis_reads_in_the_replay_and_on_the_match_page(
    server: Daphne, site: Stack, open_browser: Callable[[str], Page]
) -> None:
    (match_id,) = start_bot_matches(site, 1)
    number, plays = analysed_deal(site, match_id)
    first = plays[0]["step"]
    graded = [p["step"] for p in plays if p["loss"] >= 10]
    for language, forward in (("en", "ArrowRight"), ("ar", "ArrowLeft")):
        name = f"analyst-{language}"
        create_user(site, name)
        page = open_browser(name)
        problems: list[str] = []
        page.on("console", recorder(problems))
        log_in(page, server.url, name, PASSWORD)
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": server.url}]
        )
        replay = f"{server.url}/matches/{match_id}/deals/{number}/"
        page.goto(f"{replay}?step={first - 1}")
        page.wait_for_selector("[data-analysis]")
        assert page.locator("svg.evaluation-chart").count() == 1
        # The arrow key forward (mirrored in Arabic) steps onto the first card:
        # the analysis panel and the line's marker move with it.
        page.locator("body").press(forward)
        page.wait_for_selector(f'#replay[data-step="{first}"]')
        before = page.get_attribute("[data-before]", "data-before")
        assert before == " ".join(map(str, plays[0]["before"]))
        assert page.get_attribute("[data-after]", "data-after") == " ".join(
            map(str, plays[0]["after"])
        )
        later = [step for step in graded if step > first]
        if later:
            # N goes to the next mistake, wherever it is.
            page.locator("body").press("n")
            page.wait_for_selector(f'#replay[data-step="{later[0]}"]')
            assert page.locator("[data-best]").count() == 1
        shoot(page, f"replay-{language}")
        page.goto(f"{server.url}/matches/{match_id}/")
        page.wait_for_selector("table.analysis-table")
        assert page.locator("tr[data-seat]").count() == 4
        shoot(page, f"match-{language}")
        html = page.locator("html")
        assert html.get_attribute("lang") == language
        # The site's CSP allows no inline script or style: the browser reports none refused.
        assert not [p for p in problems if "Content Security Policy" in p], problems
