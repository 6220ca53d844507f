"""The ratings page, the leaderboard and a profile in all six languages; the worked example."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games.ratings import explain, formula
from tests.ratings.boards import rated_player
from tests.support.languages import LANGUAGES
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

# Strings each page must show, in the page's language.
PAGES = {
    "ratings:about": (
        "How ratings work",
        "Leaving a rated match",
        "A worked example",
        "Parameters",
    ),
    "ratings:leaderboard": ("Leaderboard", "All time", "This month", "Rank", "Rated matches"),
    "ratings:profile": ("Ratings", "Statistics", "Average points per deal", "Recent matches"),
}


def url_of(name: str, player: User) -> str:
    return (
        reverse(name, args=[player.get_username()]) if name == "ratings:profile" else reverse(name)
    )


@pytest.fixture
def player() -> User:
    return rated_player("rated-one", 1480, 12)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_page_speaks_english(name: str, player: User):
    body = client_for(player, "en").get(url_of(name, player)).content.decode()
    for text in PAGES[name]:
        assert text in body, text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_page_in_each_language(name: str, language: str, player: User):
    response = client_for(player, language).get(url_of(name, player))
    assert response.status_code == 200
    body = response.content.decode()
    assert re.search(rf'<html lang="{language}" dir="{"rtl" if language == "ar" else "ltr"}"', body)
    with translation.override(language):
        for text in PAGES[name]:
            translated = gettext(text)
            assert translated != text, (language, text)
            assert translated in body, (language, text)
            assert f">{text}<" not in body, (language, text)


def test_the_worked_example_is_the_librarys_own_computation(player: User):
    body = client_for(None, "en").get(reverse("ratings:about")).content.decode()
    played, left = explain.examples()
    start = explain.EXAMPLE_START
    assert played.seats[0].after == formula.rate(start, "A")[1]
    assert left.seats[0].after == formula.rate(start, "A", frozenset({1}))[1]
    # A leaver of the winning team goes down, their partner goes up.
    assert left.seats[0].change < 0 < left.seats[2].change
    for example in (played, left):
        for seat in example.seats:
            assert f"{seat.after.mu:.2f}" in body
            assert f"<strong>{seat.after.shown}</strong>" in body
    assert f"{formula.BETA:.3f}" in body
    assert f"{formula.TAU:.4f}" in body
