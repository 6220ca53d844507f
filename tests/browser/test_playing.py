"""A real browser at the table: sign up and play a deal, two players, replay, reload.

Debian's Chromium, driven by Playwright, against the site served as
``make run`` serves it (DEBUG off). Every click goes through the page's own
htmx buttons and every update arrives through its own WebSocket.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from stacks.servers import Daphne, Stack
from stacks.tables import PASSWORD, create_user
from tests.browser.table_page import (
    act,
    log_in,
    read_table,
    screenshot,
    wait_for_seq_after,
    wait_for_turn_or,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

RESULT_SHOWN = "t.querySelector('details.result') !== null"
MAX_TURNS = 40


def match_id_of(page: Page) -> int:
    return int(page.url.rstrip("/").split("/")[-1])


def actions_of(site: Stack, match_id: int, seat: int) -> list[tuple[dict[str, object], bool]]:
    """The actions recorded for ``seat``: (payload, forced by the timer)."""
    rows = site.rows(
        "SELECT payload, auto FROM games_event WHERE match_id = %s AND actor_seat = %s "
        "ORDER BY seq",
        match_id,
        seat,
    )
    return [(json.loads(payload), bool(auto)) for payload, auto in rows]


def test_a_new_player_signs_up_and_plays_a_whole_deal_by_clicking(
    server: Daphne,
    site: Stack,
    open_browser: Callable[[str], Page],
    request: pytest.FixtureRequest,
):
    page = open_browser("newcomer")
    page.goto(f"{server.url}/accounts/signup/")
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    # A new player lands in the lobby.
    page.wait_for_url("**/lobby/#play-now-heading")
    page.get_by_role("button", name="Play now").click()
    page.wait_for_url("**/match/*/")
    match_id = match_id_of(page)
    # Read whether the sheet is open or shut: every push re-renders it shut.
    sheet_text = page.locator("#table details.sheet").text_content() or ""
    assert "No deal has been completed yet." in sheet_text

    clicks: Counter[str] = Counter()
    # A deal is at most a few bids and calls, a declaration and eight cards.
    for _turn in range(MAX_TURNS):
        table = wait_for_turn_or(page, RESULT_SHOWN)
        if table["result"]:
            break
        kind = act(page, table, clicks)
        assert kind is not None, f"my turn, but nothing to click: {table}"
        if kind == "play" and clicks["play"] == 4:
            screenshot(page, request, "mid-deal")
    else:
        raise AssertionError(f"the deal did not end after {MAX_TURNS} turns: {clicks}")

    result = page.locator("#table details.result")
    assert "Result of deal 1" in result.locator("summary").inner_text()
    assert (result.locator(".headline").text_content() or "").strip()
    rows = page.locator("#table details.sheet tbody tr")
    assert rows.count() == 1
    assert (rows.first.locator("td").first.text_content() or "").strip() == "1"

    # Every click was recorded as the player's own action, none forced by the timer.
    mine = actions_of(site, match_id, 1)
    plays = [payload for payload, _auto in mine if "play" in payload]
    assert [auto for _payload, auto in mine] == [False] * len(mine)
    assert clicks["bid"] >= 1
    assert sum(1 for payload, _auto in mine if "bid" in payload) == clicks["bid"]
    # One declaration, clicked: a hand with no project is asked like any other.
    assert sum(1 for payload, _auto in mine if "declare" in payload) == 1
    assert clicks["declare"] == 1
    assert len(plays) == clicks["play"] >= 1
    deal_plays = site.rows(
        "SELECT count(*) FROM games_event WHERE match_id = %s AND payload LIKE %s",
        match_id,
        '%"play"%',
    )[0][0]
    claimed = site.rows(
        "SELECT count(*) FROM games_event WHERE match_id = %s AND payload LIKE %s",
        match_id,
        '%"sawa"%',
    )[0][0]
    # A whole deal: all 32 cards, unless a Sawa claim ended it early.
    assert deal_plays == 32 or claimed
    assert clicks["play"] == 8 or claimed


def test_two_players_at_one_table_see_each_others_moves_without_reloading(
    server: Daphne, site: Stack, open_browser: Callable[[str], Page]
):
    for name in ("amina", "badr"):
        create_user(site, name)
    host = open_browser("amina")
    guest = open_browser("badr")
    log_in(host, server.url, "amina", PASSWORD)
    log_in(guest, server.url, "badr", PASSWORD)

    host.goto(f"{server.url}/lobby/")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url("**/match/*/")
    match_id = match_id_of(host)
    guest.goto(f"{server.url}/match/{match_id}/")
    # Partners sit opposite: seat 3 faces the host's seat 1.
    guest.locator(".waiting-seat-3").get_by_role("button", name="Sit here").click()
    host.locator(".waiting-seat-3", has_text="badr").wait_for()
    for number in (2, 4):
        host.locator(f".waiting-seat-{number}").get_by_role("button", name="Add a bot").click()
        host.locator(f".waiting-seat-{number}", has_text="Bot").wait_for()
    host.get_by_role("button", name="Start the match").click()
    for page in (host, guest):
        page.wait_for_selector("#table .hand")
        # A page that reloads loses this mark.
        page.evaluate("() => { window.stillTheSamePage = true; }")

    names = {id(host): "amina", id(guest): "badr"}
    clicks: Counter[str] = Counter()
    seen_by_other = Counter[str]()
    deadline = time.monotonic() + 180
    while min(seen_by_other["amina"], seen_by_other["badr"]) < 3:
        assert time.monotonic() < deadline, f"the players stopped getting turns: {seen_by_other}"
        for page, other in ((host, guest), (guest, host)):
            table = read_table(page)
            if not table["mine"]:
                continue
            before = read_table(other)["seq"]
            act(page, table, clicks)
            after = read_table(page)["seq"]
            # The other player's page follows through its WebSocket alone.
            wait_for_seq_after(other, max(before, after - 1))
            other_table = read_table(other)
            assert other_table["seq"] >= after
            seen_by_other[names[id(page)]] += 1
        host.wait_for_timeout(100)
    for page in (host, guest):
        assert page.evaluate("() => window.stillTheSamePage === true")
    assert any("amina" in line for line in read_table(guest)["log"]) or read_table(guest)["trick"]


# A whole match played by bots takes half a minute: CI runs it, a local run leaves it out.
def test_after_a_whole_match_the_replay_steps_through_a_deal_by_keyboard(
    server: Daphne, site: Stack, open_browser: Callable[[str], Page]
):
    create_user(site, "replayer")
    page = open_browser("replayer")
    log_in(page, server.url, "replayer", PASSWORD)
    page.goto(f"{server.url}/lobby/")
    page.check("input[name=mode][value=quick]")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url("**/match/*/")
    for number in (2, 3, 4):
        page.locator(f".waiting-seat-{number}").get_by_role("button", name="Add a bot").click()
        page.locator(f".waiting-seat-{number}", has_text="Bot").wait_for()
    page.get_by_role("button", name="Start the match").click()
    # Bots play the whole match, this seat included, while the page follows it.
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#table .table-menu summary").click()
    page.get_by_role("button", name="Step away (a bot plays for me)").click()
    page.locator("#table .match-over").wait_for(timeout=300_000)

    page.get_by_role("link", name="Match page").click()
    page.locator("a[href*='/deals/1/']:visible").first.click()
    page.wait_for_url("**/deals/1/**")
    replay = page.locator("#replay")

    def step() -> int:
        return int(replay.get_attribute("data-step") or "-1")

    def last_step() -> int:
        return int(replay.get_attribute("data-last-step") or "0")

    # A deal that everyone passed, or that was redealt, has only a few steps:
    # move on to one with enough of them to walk through.
    for _deal in range(10):
        if last_step() >= 5:
            break
        with page.expect_navigation():
            page.get_by_role("link", name="Next deal").click()
    last = last_step()
    assert last >= 5
    assert step() == 0
    page.locator("body").click()
    for expected in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "(n) => Number(document.querySelector('#replay').dataset.step) === n", arg=expected
        )
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => Number(document.querySelector('#replay').dataset.step) === 2")
    page.keyboard.press("End")
    page.wait_for_function(
        "(n) => Number(document.querySelector('#replay').dataset.step) === n", arg=last
    )
    assert page.locator("#replay .replay-actions .current").count() == 1
    page.keyboard.press("Home")
    page.wait_for_function("() => Number(document.querySelector('#replay').dataset.step) === 0")
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(300)
    assert step() == 0


def test_reloading_mid_deal_shows_the_same_table(
    server: Daphne, site: Stack, open_browser: Callable[[str], Page]
):
    create_user(site, "reloader")
    page = open_browser("reloader")
    log_in(page, server.url, "reloader", PASSWORD)
    page.goto(f"{server.url}/lobby/")
    page.get_by_role("button", name="Play now").click()
    page.wait_for_url("**/match/*/")
    clicks: Counter[str] = Counter()
    # Into the card play, with some cards on the table and in the tricks won.
    for _turn in range(MAX_TURNS):
        table = wait_for_turn_or(page, "false")
        if table["playable"] and clicks["play"] >= 2:
            break
        act(page, table, clicks)
    else:
        raise AssertionError(f"no third card to play after {MAX_TURNS} turns: {clicks}")

    # Nobody else moves while this seat has the turn, so the picture must not change.
    page.reload()
    page.wait_for_selector("#table .hand")
    after = read_table(page)
    assert after == table
    assert after["mine"]
    assert after["trick"] or after["log"] or after["contract"]
