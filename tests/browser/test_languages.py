"""The table in Arabic and in Thai, in a real browser (issue 7): right to left
for Arabic, the seeds' own game terms, and a screenshot of each left in
``test-artifacts/browser/`` for a person to look at."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from stacks.servers import Daphne, Stack
from stacks.tables import PASSWORD, create_user
from tests.browser.table_page import log_in, wait_for_turn_or

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

# The direction each language is written in.
LANGUAGES = {"ar": "rtl", "th": "ltr"}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_table_reads_in_arabic_and_in_thai(
    language: str, server: Daphne, site: Stack, open_browser: Callable[[str], Page]
) -> None:
    direction = LANGUAGES[language]
    name = f"reader-{language}"
    create_user(site, name)
    page = open_browser(name)
    log_in(page, server.url, name, PASSWORD)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page.goto(f"{server.url}/lobby/")
    page.click("section.play-now form button[type=submit]")
    page.wait_for_url("**/match/*/")
    wait_for_turn_or(page, "true")
    page.wait_for_selector("#table")
    html = page.locator("html")
    assert html.get_attribute("lang") == language
    assert html.get_attribute("dir") == direction
    # Nothing of the English interface is left on the table's own headings.
    assert "Score sheet" not in page.inner_text("#table")
