"""Every screen in every language: the table (a seat with its buttons, a spectator), the lobby,
the replay viewer, the result panel and the score sheets.

Each page is first rendered in English to prove that the strings checked are
really on it; then, in each language, the page must carry the translation of
each of them and not the English, use the seeds' words for the game, and
declare its language and direction on ``<html>`` (right to left in Arabic).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games import rules
from games.match.models import Match
from tests.support.drivers import started_match
from tests.support.languages import LANGUAGES
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

# Words of the game each language's pages must show, in the seeds' vocabulary
# (and, in Arabic, the words Saudi players use).
FACE_UP_CARD = {
    "ar": "الورقة المكشوفة",
    "id": "Kartu terbuka",
    "zh-hans": "底牌",
    "ko": "오픈 카드",
    "th": "ไพ่กองกลาง",
}
DEALER = {"ar": "الموزع", "id": "Bandar", "zh-hans": "庄家", "ko": "딜러", "th": "เจ้ามือ"}
BIDS_IN_ARABIC = ("صن", "حكم", "بس")

Message = str | tuple[str, dict[str, Any]]


def text_of(message: Message) -> str:
    """A message in the active language: a msgid, or a msgid with its params."""
    if isinstance(message, str):
        return gettext(message)
    msgid, params = message
    return gettext(msgid) % params


def page(client: Any, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


# Attributes whose text people see or hear; the others (tokens, URLs, JSON)
# could hold any letters.
SHOWN_ATTRIBUTES = re.compile(r'\b(?:title|aria-label|alt|placeholder)="([^"]*)"')


def shown_text(body: str) -> str:
    """What a person reads or hears on the page: text between tags and the spoken attributes."""
    without_code = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    spoken = SHOWN_ATTRIBUTES.findall(without_code)
    text = re.sub(r"<[^>]*>", "\n", without_code)
    return html.unescape("\n".join([text, *spoken]))


def shows(text: str, words: str) -> bool:
    """True when ``words`` stand in ``text`` on their own, not inside a longer word."""
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text) is not None


def html_tag(body: str) -> str:
    found = re.search(r"<html[^>]*>", body)
    assert found is not None, "a page without its <html> element"
    return found.group(0)


def check_translated(
    get: Callable[[str], str], messages: Sequence[Message], terms: Mapping[str, Sequence[str]]
) -> None:
    """``get(language)`` renders a page; each message and term must appear in each language."""
    english_page = get("en")
    assert 'lang="en"' in html_tag(english_page)
    english = shown_text(english_page)
    for message in messages:
        with translation.override("en"):
            assert shows(english, text_of(message)), f"{message!r} is not on the English page"
    for language in LANGUAGES:
        body = get(language)
        tag = html_tag(body)
        assert f'lang="{language}"' in tag
        assert f'dir="{"rtl" if language == "ar" else "ltr"}"' in tag
        text = shown_text(body)
        for message in messages:
            with translation.override("en"):
                source = text_of(message)
            with translation.override(language):
                translated = text_of(message)
            assert translated != source, f"{message!r} has no {language} translation"
            assert translated in text, f"{language}: {translated!r} missing"
            assert not shows(text, source), f"{language}: English {source!r} left on the page"
        for term in terms.get(language, ()):
            assert term in text, f"{language}: the game term {term!r} is missing"


def game_terms(*tables: dict[str, str]) -> dict[str, list[str]]:
    return {language: [table[language] for table in tables] for language in LANGUAGES}


def test_the_table_for_the_seat_to_bid(players: dict[int, User]) -> None:
    outcome = started_match(players)
    seat = outcome.state.turn
    assert seat is not None
    url = reverse("play:table", args=[outcome.match.pk])
    terms = game_terms(FACE_UP_CARD, DEALER)
    terms["ar"] += BIDS_IN_ARABIC

    def get(language: str) -> str:
        body = page(client_for(players[seat], language), url)
        # The bid buttons are there: this is the seat to act.
        assert 'name="action"' in body
        return body

    check_translated(
        get,
        [
            "Your turn to bid.",
            "Your options",
            "Card table",
            "Score sheet",
            "No deal has been completed yet.",
            "Back to the lobby",
            "Step away (a bot plays for me)",
        ],
        terms,
    )


def test_the_table_for_a_spectator(players: dict[int, User], make_user: Any) -> None:
    outcome = started_match(players)
    watcher = make_user("erin")
    url = reverse("play:table", args=[outcome.match.pk])
    turn = outcome.state.turn
    assert turn is not None

    def get(language: str) -> str:
        body = page(client_for(watcher, language), url)
        assert "Step away" not in body, "a spectator has no seat to leave"
        return body

    check_translated(
        get,
        [
            ("Waiting for %(name)s.", {"name": players[turn].username}),
            "Team A",
            "Team B",
            "Score sheet",
            "Card table",
        ],
        game_terms(FACE_UP_CARD, DEALER),
    )


def test_the_lobby(players: dict[int, User]) -> None:
    url = reverse("play:lobby")
    check_translated(
        lambda language: page(client_for(players[1], language), url),
        ["Play now", "Open a table", "Lobby", "My matches", "Skip to content"],
        {},
    )


def test_the_result_panel_and_score_sheet_on_the_table(
    players: dict[int, User], after_one_deal: Match
) -> None:
    url = reverse("play:table", args=[after_one_deal.pk])

    def get(language: str) -> str:
        body = page(client_for(players[1], language), url)
        if language == "ar":
            # Figures such as "+10" keep their order in right-to-left text.
            assert '<bdi dir="ltr">' in body
        return body

    check_translated(
        get,
        [
            ("Result of deal %(number)s", {"number": 1}),
            "Card points from tricks",
            "Points this deal",
            "Match score",
            "Score sheet",
            "Bought by",
            "Us",
            "Them",
        ],
        {"ar": ["لنا", "لهم"]},
    )


def test_the_match_page_score_sheet(players: dict[int, User], after_one_deal: Match) -> None:
    url = reverse("games:detail", args=[after_one_deal.pk])
    check_translated(
        lambda language: page(client_for(players[1], language), url),
        ["Score sheet", "Bought by", "Multiplier", ("Replay deal %(number)s", {"number": 1})],
        game_terms(DEALER),
    )


def test_the_replay_viewer(players: dict[int, User], after_one_deal: Match) -> None:
    url = reverse("games:replay", args=[after_one_deal.pk, 1])
    check_translated(
        lambda language: page(client_for(players[1], language), url),
        [
            "Back to the match",
            "Check this deal",
            "Score before the deal",
            "Tricks won",
            "Every action of the deal",
            ("Step %(step)s of %(last)s", {"step": 0, "last": _last_step(players, url)}),
        ],
        game_terms(FACE_UP_CARD),
    )


def _last_step(players: dict[int, User], url: str) -> int:
    body = page(client_for(players[1], "en"), url)
    found = re.search(r'data-last-step="(\d+)"', body)
    assert found is not None
    return int(found.group(1))


def test_a_refusal_of_the_rules_reads_in_the_players_language(players: dict[int, User]) -> None:
    outcome = started_match(players)
    seat = outcome.state.turn
    assert seat is not None
    url = reverse("play:act", args=[outcome.match.pk])
    with pytest.raises(rules.WrongPhase) as refusal:
        rules.apply(outcome.state, {"seat": seat, "play": "AS"})
    for language in ["en", *LANGUAGES]:
        response = client_for(players[seat], language).post(
            url,
            {"action": '{"play": "AS"}', "expected_seq": str(outcome.seq)},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 422
        with translation.override(language):
            expected = gettext(refusal.value.template)
        assert expected in html.unescape(response.content.decode())


def test_arabic_dates_with_times_use_an_arabic_pattern(
    players: dict[int, User], after_one_deal: Match
) -> None:
    body = page(client_for(players[1], "ar"), reverse("games:detail", args=[after_one_deal.pk]))
    times = re.findall(r"<time datetime=\"[^\"]+\">([^<]+)</time>", body)
    assert times
    # "2 ديسمبر، 2026، 13:25", not Django's English fallback "ديسمبر 2, 2026, 1:25 م".
    assert all(re.fullmatch(r"\d{1,2} \S+، \d{4}، \d{2}:\d{2}", t) for t in times), times
