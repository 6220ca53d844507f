"""What a chat line may hold: normalised, without controls, with a bound on stacked marks,
and refused with a clear message when nothing visible is left."""

from __future__ import annotations

import unicodedata

import pytest
from django.contrib.auth.models import User

from games.match.models import Match
from games.social import chat
from games.social.chat_text import MAX_MARKS
from games.social.models import ChatMessage
from tests.support.clock import Clock
from tests.support.drivers import started_match
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

# "Hello" in Arabic, and "I want" in Persian, whose half-space is a zero-width non-joiner.
HELLO = "\u0645\u0631\u062d\u0628\u0627"
I_WANT = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
INVISIBLE = (
    "This message shows nothing once invisible and control characters are taken out: "
    "write some letters, digits or emoji."
)


@pytest.fixture
def table(players: dict[int, User]) -> Match:
    return started_match(players).match


def said(user: User, match: Match, text: str, clock: Clock) -> str:
    """What is stored (and shown) for ``text``; the clock moves past the rate limit."""
    clock.advance(chat.RATE_SECONDS)
    return chat.post(user, match.pk, text=text).text


@pytest.mark.parametrize(
    "text",
    [
        "\u200b\u200b\u200b",  # zero-width spaces
        "\u2060\ufeff\u00ad",  # word joiner, byte-order mark, soft hyphen
        "\u202e\u2066\u200f",  # bidi controls alone
        "\x00\x00",  # NUL
        "\u0301" * 300,  # marks with no letter to sit on
        "\u3164\u115f\u2800",  # fillers drawn as nothing
        "\u200d \u200c",  # joiners with nothing to join
    ],
)
def test_a_message_with_nothing_visible_is_refused_with_a_clear_message(
    table, players, clock, text
):
    with pytest.raises(chat.InvisibleChatMessage):
        chat.post(players[1], table.pk, text=text)
    response = client_for(players[1]).post(
        f"/match/{table.pk}/chat/", {"text": text}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    assert INVISIBLE in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_the_refusal_is_translated(table, players):
    response = client_for(players[1], "ar").post(
        f"/match/{table.pk}/chat/", {"text": "\u200b"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    assert INVISIBLE not in response.content.decode()
    # "This message shows nothing", in Arabic.
    assert (
        "\u0644\u0627 \u062a\u064f\u0638\u0647\u0631 \u0647\u0630\u0647"
        in response.content.decode()
    )


def test_controls_are_taken_out_and_the_rest_is_kept(table, players, clock):
    alice = players[1]
    # An unbalanced override would run into the rest of the page: every bidi control goes.
    assert said(alice, table, "abc\u202edef", clock) == "abcdef"
    assert said(alice, table, f"\u2067{HELLO}\u200f hi", clock) == f"{HELLO} hi"
    assert said(alice, table, "hi\x00 there\x07", clock) == "hi there"
    assert said(alice, table, "a\u200bb\ufeffc", clock) == "abc"
    # Joiners stay where they join: an emoji family, a Persian half-space.
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert said(alice, table, family, clock) == family
    assert said(alice, table, I_WANT, clock) == I_WANT
    assert said(alice, table, "  spaced \t\n out  ", clock) == "spaced out"


def test_text_is_normalised_and_stacked_marks_are_bounded(table, players, clock):
    alice = players[1]
    # "e" and a combining acute accent become the one letter "é".
    assert said(alice, table, "cafe\u0301", clock) == "café"
    zalgo = said(alice, table, "Z" + "\u0336\u0301\u0308" * 100 + "ok", clock)
    assert zalgo.endswith("ok")
    marks = [char for char in zalgo if unicodedata.combining(char)]
    assert 0 < len(marks) <= MAX_MARKS
    assert unicodedata.normalize("NFC", zalgo) == zalgo
    # Arabic vowel signs and a shadda, Thai vowel and tone marks are kept.
    arabic = "مُحَمَّدٌ"
    assert said(alice, table, arabic, clock) == unicodedata.normalize("NFC", arabic)
    assert said(alice, table, "ที่นี่", clock) == "ที่นี่"
    stored = ChatMessage.objects.order_by("-pk").first()
    assert stored is not None
    assert stored.text == "ที่นี่"
