"""The card table as a player meets it, in a real browser: joining by invite, the
trick held and swept, panels and scroll that survive pushes, the timer notice,
and a phone-first layout without overflow in English and Arabic.

Debian's Chromium driven by Playwright against the site as ``make run``
serves it; each test leaves screenshots in ``test-artifacts/browser/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.table_page import screenshot
from tests.realworld.tables import PASSWORD, create_user
from tests.support.servers import Daphne, Stack

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}


def sign_up(page: Page, username: str) -> None:
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")


def in_viewport(page: Page, selector: str) -> bool:
    """True when the element's whole bounding box lies inside the viewport."""
    return bool(
        page.evaluate(
            """(selector) => {
              const e = document.querySelector(selector);
              if (!e) return false;
              const r = e.getBoundingClientRect();
              return r.width > 0 && r.top >= 0 && r.left >= 0
                && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
            }""",
            selector,
        )
    )


def test_a_friend_follows_an_invite_signs_up_and_lands_at_that_table(
    server: Daphne,
    site: Stack,
    open_browser: Callable[[str], Page],
    request: pytest.FixtureRequest,
):
    create_user(site, "host")
    host = open_browser("host")
    host.goto(f"{server.url}/accounts/login/")
    host.fill("input[name=username]", "host")
    host.fill("input[name=password]", PASSWORD)
    host.click("main form button[type=submit]")
    host.goto(f"{server.url}/lobby/")
    host.check("input[name=is_private]")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url("**/match/*/")
    invite = host.locator("[data-invite]").get_attribute("href")
    assert invite is not None
    assert "invite=" in invite

    friend = open_browser("friend")
    friend.set_viewport_size(PHONE)
    friend.goto(f"{server.url}{invite}")
    friend.wait_for_url("**/accounts/login/**")
    assert friend.get_by_text("You were invited to a table.").is_visible()
    friend.get_by_role("link", name="Create a free account").click()
    friend.wait_for_url("**/accounts/signup/**")
    screenshot(friend, request, "signup")
    sign_up(friend, "friend")
    friend.wait_for_url(f"**{invite}")
    friend.locator(".waiting-seat-3").get_by_role("button", name="Sit here").click()
    host.locator(".waiting-seat-3", has_text="friend").wait_for()


def test_after_signing_up_without_an_invite_play_now_is_in_view(
    server: Daphne, open_browser: Callable[[str], Page]
):
    page = open_browser("newcomer")
    page.set_viewport_size(PHONE)
    page.goto(f"{server.url}/accounts/signup/")
    sign_up(page, "newcomer-phone")
    page.wait_for_url("**/lobby/")
    assert in_viewport(page, ".play-now button[type=submit]")
