"""The card table as a player meets it, in a real browser: joining by invite, the
trick held and swept, panels and scroll that survive pushes, the timer notice,
and a phone-first layout without overflow in English and Arabic.

Debian's Chromium driven by Playwright against the site as ``make run``
serves it; each test leaves screenshots in ``test-artifacts/browser/``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from stacks.servers import Daphne, Stack
from stacks.tables import PASSWORD, create_user
from tests.browser.table_page import (
    act,
    read_table,
    screenshot,
    wait_for_seq_after,
    wait_for_turn_or,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}
RESULT_SHOWN = "t.querySelector('details.result') !== null"
# A deal is at most a few bids and calls, a declaration and eight cards.
MAX_TURNS = 40
# Deals played, at most, until the player has had a turn to bid.
DEALS_FOR_A_BID = 4
NEXT_DEAL = (
    f"() => {{ const t = document.querySelector('#table'); return t && !({RESULT_SHOWN}); }}"
)


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
    # The token stayed in the session: the friend lands on the table's own address.
    friend.wait_for_url(f"**{invite.split('?', 1)[0]}")
    assert "invite=" not in friend.url
    friend.locator(".waiting-seat-3").get_by_role("button", name="Sit here").click()
    host.locator(".waiting-seat-3", has_text="friend").wait_for()


def test_after_signing_up_without_an_invite_play_now_is_in_view(
    server: Daphne, open_browser: Callable[[str], Page]
):
    page = open_browser("newcomer")
    page.set_viewport_size(PHONE)
    page.goto(f"{server.url}/accounts/signup/")
    sign_up(page, "newcomer-phone")
    page.wait_for_url("**/lobby/#play-now-heading")
    assert in_viewport(page, ".play-now button[type=submit]")


# Records, inside the page, every finished trick held over the middle: how many
# cards it showed, how many were marked as the winner, and whether it swept.
WATCH_TRICKS = """() => {
  window.heldTricks = [];
  const seen = new Map();
  const look = () => {
    for (const held of document.querySelectorAll('.trick-held')) {
      const key = held.dataset.trick;
      if (!seen.has(key)) {
        const shown = [...held.querySelectorAll('[data-card]')]
          .filter((c) => c.getBoundingClientRect().width > 0);
        const record = {
          key, cards: shown.length,
          winners: held.querySelectorAll('.winning [data-card]').length,
          winner: held.dataset.winner, swept: false,
        };
        seen.set(key, record);
        window.heldTricks.push(record);
      }
      if (held.classList.contains('trick-sweeping') || held.classList.contains('trick-fading')) {
        seen.get(key).swept = true;
      }
    }
  };
  new MutationObserver(look).observe(document.body,
    {childList: true, subtree: true, attributes: true, attributeFilter: ['class']});
}"""

# Where the page is scrolled and where the hand lies, before and after a move.
PLACE = """() => {
  const hand = document.querySelector('#table .hand');
  const table = document.querySelector('#table');
  return {
    scrollY: window.scrollY,
    hand: hand ? hand.getBoundingClientRect().bottom : null,
    phase: table ? table.className : '',
    parts: ['.scoreboard', '.felt', '.controls', '.hand', '.table-error']
      .map((s) => [s, document.querySelector('#table ' + s)?.getBoundingClientRect().height]),
  };
}"""

# What must be on a phone's one screen, and whether anything spills over.
ONE_SCREEN = """() => {
  const inside = (e) => {
    if (!e) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0
      && r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5;
  };
  const all = (selector) => [...document.querySelectorAll(selector)];
  return {
    status: inside(document.querySelector('#table .scoreboard')),
    trick: inside(document.querySelector('#table .center')),
    seats: all('#table .seat').length === 4 && all('#table .seat').every(inside),
    hand: inside(document.querySelector('#table .hand')),
    scrollHeight: document.documentElement.scrollHeight,
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    height: window.innerHeight,
  };
}"""


def play_now(page: Page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    sign_up(page, username)
    page.wait_for_url("**/lobby/#play-now-heading")
    page.get_by_role("button", name="Play now").click()
    page.wait_for_url("**/match/*/")
    page.wait_for_selector("#table .hand")


def test_a_deal_on_a_phone_fits_one_screen_and_tricks_are_held_then_swept(
    server: Daphne, open_browser: Callable[[str], Page], request: pytest.FixtureRequest
):
    page = open_browser("phone")
    page.set_viewport_size(PHONE)
    play_now(page, server.url, "phone-player")
    page.evaluate(WATCH_TRICKS)
    clicks: Counter[str] = Counter()
    phases: set[str] = set()
    deals = 1
    for _turn in range(MAX_TURNS * DEALS_FOR_A_BID):
        table = wait_for_turn_or(page, RESULT_SHOWN)
        if table["result"]:
            # The deal is random: a bot's bid may close the bidding before
            # the player's first turn. Then the next deal is played too.
            if "bidding" in phases or deals == DEALS_FOR_A_BID:
                break
            deals += 1
            page.wait_for_function(NEXT_DEAL, timeout=60_000)
            continue
        phase = page.eval_on_selector("#table", "t => t.className")
        screen = page.evaluate(ONE_SCREEN)
        assert all(screen[k] for k in ("status", "trick", "seats", "hand")), (phase, screen)
        assert screen["scrollHeight"] <= screen["height"], (phase, screen)
        assert screen["scrollWidth"] <= screen["width"], (phase, screen)
        for name in ("bidding", "doubling", "declaring", "playing"):
            if f"phase-{name}" in phase and name not in phases:
                phases.add(name)
                screenshot(page, request, name)
        before = page.evaluate(PLACE)
        act(page, table, clicks)
        after = page.evaluate(PLACE)
        # One's own move neither scrolls the page nor moves the hand.
        assert after["scrollY"] == before["scrollY"]
        if after["hand"] is not None:
            assert abs(after["hand"] - before["hand"]) < 1, (before, after)
        if "trick-held" not in phases and page.locator(".trick-held").count():
            # A finished trick, caught while it is held in the middle.
            phases.add("trick-held")
            screenshot(page, request, "trick-held")
    else:
        raise AssertionError(f"{deals} deals did not end after {_turn + 1} turns: {clicks}")
    assert {"bidding", "playing"} <= phases, f"no bidding turn in {deals} deals"
    held = page.evaluate("() => window.heldTricks")
    assert held, "no finished trick was held in the middle"
    for trick in held:
        # All four cards were on screen, one marked as the winner, before the sweep.
        assert trick["cards"] == 4, trick
        assert trick["winners"] == 1, trick
        assert trick["winner"] in ("top", "left", "right", "bottom")
    page.wait_for_function("() => window.heldTricks.every((t) => t.swept)", timeout=10_000)
    page.wait_for_function("() => !document.querySelector('.trick-held')", timeout=10_000)


def test_when_the_timer_plays_for_you_a_notice_says_what_and_warns(
    server: Daphne, open_browser: Callable[[str], Page], request: pytest.FixtureRequest
):
    page = open_browser("sleeper")
    play_now(page, server.url, "sleeper")
    table = wait_for_turn_or(page, "false")
    # Usually a bid; on a loaded machine the page may first catch a later turn
    # (the bids timed out unseen), which the timer settles the same way.
    assert table["buttons"] or table["playable"], "the player's turn offers something"
    # Do nothing: the turn's seconds run out and the timer acts for this seat.
    notice = page.locator("#table .timer-notice")
    notice.wait_for(timeout=30_000)
    text = notice.inner_text()
    assert "Time ran out" in text
    # The bid's timer fires first; on a slow machine the page may first show
    # a later timeout (the card the timer then played), which says the same.
    assert "“Pass” was chosen for you" in text or " was played for you." in text, text
    assert "After 3 missed turns in a row, a bot takes over your seat." in text
    screenshot(page, request, "notice")


def test_stepping_away_is_in_the_seat_menu_and_asks_first(
    server: Daphne, open_browser: Callable[[str], Page]
):
    page = open_browser("stepper")
    play_now(page, server.url, "stepper")
    step_away = page.get_by_role("button", name="Step away (a bot plays for me)")
    assert not step_away.is_visible()
    page.locator("#table .table-menu summary").click()
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if len(asked) == 1:
            dialog.dismiss()
        else:
            dialog.accept()

    page.on("dialog", answer)
    step_away.click()
    assert asked == ["Step away? A bot plays your seat until you come back."]
    assert not page.locator("#table .away-bar").is_visible()
    if not step_away.is_visible():
        page.locator("#table .table-menu summary").click()
    step_away.click()
    page.locator("#table .away-bar").get_by_role("button", name="I'm back").wait_for()
    assert len(asked) == 2


WIDTHS = (360, 390, 768, 1280, 1920)

# Opens every panel and menu on the page, then measures at once, before any push.
OPEN_EVERYTHING_AND_MEASURE = """() => {
  for (const panel of document.querySelectorAll('details')) panel.open = true;
  return {
    open: document.querySelectorAll('details[open]').length,
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
  };
}"""


def step_away(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#table .table-menu summary").click()
    page.get_by_role("button", name="Step away (a bot plays for me)").click()
    page.locator("#table .away-bar").wait_for()


@pytest.mark.parametrize("language", ["en", "ar"])
def test_no_width_overflows_with_every_panel_open(
    language: str,
    server: Daphne,
    open_browser: Callable[[str], Page],
    request: pytest.FixtureRequest,
):
    page = open_browser(f"widths-{language}")
    play_now(page, server.url, f"widths-{language}")
    # Bots play this seat until a deal is scored, so the result and the sheet have rows.
    step_away(page)
    page.locator("#table details.sheet tbody tr").first.wait_for(state="attached", timeout=120_000)
    page.get_by_role("button", name="I'm back").click()
    page.locator("#table .table-menu").wait_for()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page.reload()
    page.wait_for_selector("#table .felt")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 768 else 900})
        measured = page.evaluate(OPEN_EVERYTHING_AND_MEASURE)
        assert measured["open"] >= 5, measured
        assert measured["scrollWidth"] <= measured["width"], (width, measured)
        if width in (390, 1280):
            screenshot(page, request, f"{width}")


def test_an_open_score_sheet_stays_open_across_five_pushes(
    server: Daphne, open_browser: Callable[[str], Page], request: pytest.FixtureRequest
):
    page = open_browser("reader")
    play_now(page, server.url, "sheet-reader")
    # Bots play this seat, so the pushes keep coming without a click.
    step_away(page)
    page.locator("#table details.sheet summary").click()
    assert page.locator("#table details.sheet").get_attribute("open") is not None
    start = read_table(page)["seq"]
    for pushed in range(1, 6):
        wait_for_seq_after(page, start + pushed - 1)
        assert page.locator("#table details.sheet[open]").count() == 1, f"shut by push {pushed}"
    screenshot(page, request, "sheet-open")
