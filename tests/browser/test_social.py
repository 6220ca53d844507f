"""Quick match and table chat in real browsers, in English and Arabic, on a phone and a desktop.

Two people ask for a game in two browsers and meet at one table; two
players at a table chat, one reading English and the other Arabic; two
players at a finished match agree to a rematch. Each step
leaves screenshots in ``test-artifacts/browser/`` at phone size (390x844) and
desktop size (1280x800).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from stacks.servers import ROOT, Daphne, Stack
from stacks.tables import PASSWORD, create_user, start_tables
from tests.browser.table_page import log_in

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-artifacts" / "browser"
SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}


def shots(page: Page, name: str) -> None:
    """Screenshots of the page as it is, at phone and desktop size."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        page.screenshot(path=str(ARTIFACTS / f"social-{name}-{size}.png"), full_page=True)


def in_language(page: Page, server: Daphne, language: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])


def queue_two_more(site: Stack, names: list[str]) -> None:
    """Two more players ask for the same game, their queue pages open (server-side)."""
    site.shell(
        "from django.contrib.auth.models import User\n"
        "from games.social import queue\n"
        f"for name in {names!r}:\n"
        "    user = User.objects.create_user(name)\n"
        "    queue.page_opened(user, f'page-of-{name}')\n"
        "    queue.join(user, mode='quick', play_timer=30)\n"
    )


@pytest.mark.parametrize("language", ["en", "ar"])
def test_two_browsers_find_a_game_and_meet_at_one_table(
    language: str, server: Daphne, site: Stack, open_browser: Callable[[str], Page]
) -> None:
    names = [f"seeker-{language}-{n}" for n in (1, 2)]
    pages = []
    for name in names:
        create_user(site, name)
        page = open_browser(name)
        in_language(page, server, language)
        log_in(page, server.url, name, PASSWORD)
        pages.append(page)
    first, second = pages
    first.goto(f"{server.url}/")
    shots(first, f"home-find-a-game-{language}")
    first.select_option("form.find-game select[name=mode]", "quick")
    first.select_option("form.find-game select[name=play_timer]", "30")
    first.click("form.find-game button[type=submit]")
    first.wait_for_url("**/quick/")
    first.wait_for_selector("[data-queue-count]")
    assert first.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
    assert first.inner_text("[data-queue-count]") == "1"
    shots(first, f"queue-waiting-{language}")

    second.goto(f"{server.url}/lobby/")
    shots(second, f"lobby-find-a-game-{language}")
    second.select_option("form.find-game select[name=mode]", "quick")
    second.select_option("form.find-game select[name=play_timer]", "30")
    second.click("form.find-game button[type=submit]")
    second.wait_for_url("**/quick/")
    # The first page hears of the second player over its socket.
    first.wait_for_function("document.querySelector('[data-queue-count]').textContent === '2'")

    queue_two_more(site, [f"other-{language}-{n}" for n in (1, 2)])
    first.wait_for_url("**/match/*/")
    second.wait_for_url("**/match/*/")
    assert first.url == second.url
    first.wait_for_selector("#table")
    shots(first, f"queue-met-{language}")


def test_two_players_chat_one_in_english_one_in_arabic(
    server: Daphne, site: Stack, open_browser: Callable[[str], Page]
) -> None:
    [table] = start_tables(site, 1, (1, 2), prefix="chat")
    english_name, arabic_name = table.players[1], table.players[2]
    assert english_name
    assert arabic_name
    english, arabic = open_browser("chat-en"), open_browser("chat-ar")
    in_language(arabic, server, "ar")
    for page, name in ((english, english_name), (arabic, arabic_name)):
        log_in(page, server.url, name, PASSWORD)
        page.goto(f"{server.url}/match/{table.match_id}/")
        page.wait_for_selector("#chat-form")

    english.fill("#chat-text", "Hello partner <b>bold?</b>")
    english.click("#chat-form .chat-input button[type=submit]")
    arabic.wait_for_selector("#chat-log .chat-line:has-text('Hello partner')")
    assert "<b>bold?</b>" in arabic.inner_text("#chat-log")
    assert english.input_value("#chat-text") == ""

    arabic.click("#chat-form button[name=phrase][value=salam]")
    arabic.wait_for_selector("#chat-log [data-phrase=salam]")
    english.wait_for_selector("#chat-log [data-phrase=salam]")
    assert "السلام عليكم" in arabic.inner_text("#chat-log [data-phrase=salam]")
    assert "Peace be upon you" in english.inner_text("#chat-log [data-phrase=salam]")
    shots(english, "chat-en")
    shots(arabic, "chat-ar")


def finished_table(site: Stack, prefix: str) -> tuple[int, str, str]:
    """A match of two people and two bots, played to its end by the bots: (id, names)."""
    [table] = start_tables(site, 1, (1, 2), prefix=prefix)
    first, second = str(table.players[1]), str(table.players[2])
    # Both people step away at once, so the bots play the whole match quickly.
    site.shell(
        "from django.contrib.auth.models import User\n"
        "from games.match import services\n"
        f"for name in {[first, second]!r}:\n"
        f"    services.leave_seat(User.objects.get(username=name), {table.match_id})\n"
    )
    deadline = time.monotonic() + 300
    while site.rows("SELECT status FROM games_match WHERE id = %s", table.match_id)[0][0] != (
        "finished"
    ):
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.5)
    return table.match_id, first, second


def test_two_players_agree_to_a_rematch_and_both_go_to_the_new_match(
    server: Daphne, site: Stack, open_browser: Callable[[str], Page]
) -> None:
    match_id, first_name, second_name = finished_table(site, "again")
    english, arabic = open_browser("rematch-en"), open_browser("rematch-ar")
    in_language(arabic, server, "ar")
    for page, name in ((english, first_name), (arabic, second_name)):
        log_in(page, server.url, name, PASSWORD)
        page.goto(f"{server.url}/match/{match_id}/")
        page.wait_for_selector("#rematch .rematch-panel")
    english.click("#rematch button[type=submit]")
    # The offer reaches the other player over the table's socket.
    arabic.wait_for_selector("#rematch .rematch-accept button")
    english.wait_for_selector("#rematch .rematch-clock")
    shots(english, "rematch-offered-en")
    shots(arabic, "rematch-offered-ar")
    arabic.click("#rematch .rematch-accept button")
    english.wait_for_url(f"**/match/{match_id + 1}/")
    arabic.wait_for_url(f"**/match/{match_id + 1}/")
    english.wait_for_selector("#table")
