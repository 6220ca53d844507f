"""A profile and the leaderboard in a real browser, in English and Arabic, on a phone and a laptop.

Four players play eleven rated Quick matches through the services (quick-match
tables, which the site seats; the rating policy's limit on one line-up is
lifted for the script that plays them) and one on a private table, never
rated; seventy more players are on the board. Each page is saved as
a screenshot under ``test-artifacts/browser/`` for a person to look at, must
not overflow the screen's width, and must draw without any refusal from the
Content-Security-Policy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

from stacks.servers import Daphne, Stack
from stacks.tables import PASSWORD
from tests.browser.table_page import ARTIFACTS, log_in

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

SCREENS = {"phone": (390, 844), "laptop": (1280, 800)}
LANGUAGES = {"en": "ltr", "ar": "rtl"}

PLAY_MATCHES = """
import random
from django.conf import settings
from django.contrib.auth.models import User
from games import rules
from games.match import services
from games.ratings.models import PlayerRating
from games.ratings import formula
settings.RATED_REPEAT_HOURS = 0
settings.RATED_PAIR_DAILY_LIMIT = 1000
names = ["maha", "noura", "faisal", "saad"]
people = {n: User.objects.create_user(name, password=PASSWORD) for n, name in enumerate(names, 1)}
rng = random.Random(4)
for number in range(12):
    private = number == 11
    outcome = services.open_full_table(people, mode="quick", play_timer=15, is_private=private)
    match = outcome.match
    while outcome.state.phase is not rules.Phase.MATCH_OVER:
        legal = rules.legal_actions(outcome.state)
        calm = [a for a in legal if a.get("double", "pass") == "pass"] or legal
        action = rng.choice(calm)
        outcome = services.submit_as_seat(match, outcome.state.turn, action, outcome.seq)
for n in range(70):
    user = User.objects.create_user(f"board{n:02d}")
    shown = 1150 + 7 * n
    sigma = 2.5
    PlayerRating.objects.create(
        user=user, mode="quick", sigma=sigma, display=shown, rated_matches=12 + n,
        mu=(shown - formula.TARGET) / formula.ALPHA + formula.Z * sigma,
    )
print(PlayerRating.objects.get(user=people[1], mode="quick").rated_matches)
"""


@pytest.fixture(scope="module")
def rated_site(site: Stack) -> Stack:
    printed = site.shell(f"PASSWORD = {PASSWORD!r}\n" + PLAY_MATCHES, timeout=600)
    assert printed.strip().splitlines()[-1] == "11"
    return site


@pytest.fixture
def browse(chromium: Browser) -> Iterator[Callable[[tuple[int, int]], tuple[Page, list[str]]]]:
    """A fresh browser profile of the given size, and the console errors it reports."""
    contexts = []

    def open_one(size: tuple[int, int]) -> tuple[Page, list[str]]:
        width, height = size
        context = chromium.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
        return page, errors

    yield open_one
    for context in contexts:
        context.close()


MEASURE = """() => ({
  scrollWidth: document.documentElement.scrollWidth,
  width: window.innerWidth,
  dir: document.documentElement.dir,
  lang: document.documentElement.lang,
})"""


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_profile_and_leaderboard_on_a_phone_and_a_laptop(
    screen: str,
    language: str,
    rated_site: Stack,
    server: Daphne,
    browse: Callable[[tuple[int, int]], tuple[Page, list[str]]],
) -> None:
    page, errors = browse(SCREENS[screen])
    log_in(page, server.url, "maha", PASSWORD)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    page.goto(f"{server.url}/players/maha/")
    page.wait_for_selector(".rating-chart svg")
    measured = page.evaluate(MEASURE)
    assert measured["lang"] == language
    assert measured["dir"] == LANGUAGES[language]
    assert measured["scrollWidth"] <= measured["width"], measured
    # Eleven rated Quick matches: no longer provisional, on the board.
    assert page.locator(".rating-card[data-mode=quick] .badge-provisional").count() == 0
    assert page.locator(".rating-line[data-mode=quick] circle").count() == 12
    # Her own private match is listed for her, and its invite never shows.
    assert page.locator(".recent-matches li").count() == 10
    assert "invite" not in page.content()
    page.screenshot(
        path=str(ARTIFACTS / f"ratings-profile-{screen}-{language}.png"), full_page=True
    )

    page.goto(f"{server.url}/leaderboard/?mode=quick&page=mine")
    page.wait_for_selector("table.leaderboard")
    measured = page.evaluate(MEASURE)
    assert measured["scrollWidth"] <= measured["width"], measured
    mine = page.locator("tr.mine")
    assert mine.count() == 1
    assert "maha" in mine.inner_text()
    page.screenshot(
        path=str(ARTIFACTS / f"ratings-leaderboard-{screen}-{language}.png"), full_page=True
    )

    page.goto(f"{server.url}/ratings/")
    page.wait_for_selector("table.rating-example")
    measured = page.evaluate(MEASURE)
    assert measured["scrollWidth"] <= measured["width"], measured
    page.screenshot(path=str(ARTIFACTS / f"ratings-about-{screen}-{language}.png"), full_page=True)

    refused = [e for e in errors if "Content Security Policy" in e or "Refused" in e]
    assert refused == []
