"""Choosing bots: Play now and Add a bot take a level, stored with the seat and shown by name."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.bots import LEVELS
from games.match import services
from games.match.errors import InvalidSetting
from games.match.models import BotLevel, Match, Seat

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def levels_of(match: Match) -> dict[int, str]:
    return {s.number: s.bot_level for s in Seat.objects.filter(match=match) if s.is_bot}


def test_the_stored_levels_are_the_bots_levels():
    assert set(BotLevel.values) == set(LEVELS)


def test_play_now_without_a_level_plays_normal_bots(players):
    logged_in(players[1]).post(reverse("play:play_now"))
    assert levels_of(Match.objects.get()) == {2: "normal", 3: "normal", 4: "normal"}


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_play_now_takes_a_level(players, level):
    client = logged_in(players[1])
    response = client.post(reverse("play:play_now"), {"level": level})
    match = Match.objects.get()
    assert response["Location"] == reverse("play:table", args=[match.pk])
    assert levels_of(match) == {2: level, 3: level, 4: level}
    page = client.get(response["Location"]).content.decode()
    name = {"easy": "easy", "strong": "strong"}[level]
    assert f"Bot 3 ({name})" in page


def test_play_now_refuses_an_unknown_level(players):
    client = logged_in(players[1])
    response = client.post(reverse("play:play_now"), {"level": "grandmaster"}, follow=True)
    assert not Match.objects.exists()
    assert "Unknown bot level" in response.content.decode()


def test_the_lobby_offers_the_three_levels_with_normal_checked(players):
    page = logged_in(players[1]).get(reverse("play:lobby")).content.decode()
    for level in LEVELS:
        assert f'value="{level}"' in page
    normal = re.search(r'<input[^>]*value="normal"[^>]*>', page)
    assert normal is not None
    assert "checked" in normal.group(0)


def test_add_a_bot_with_a_level_and_see_it_by_name(players):
    match = services.create_match(players[1])
    client = logged_in(players[1])
    url = reverse("play:bot", args=[match.pk])
    client.post(url, {"number": 2, "op": "add", "level": "strong"})
    client.post(url, {"number": 3, "op": "add", "level": "easy"})
    client.post(url, {"number": 4, "op": "add"})
    assert levels_of(match) == {2: "strong", 3: "easy", 4: "normal"}
    page = client.get(reverse("play:table", args=[match.pk])).content.decode()
    assert "Bot 2 (strong)" in page
    assert "Bot 3 (easy)" in page
    assert "Bot 4 (normal)" in page
    lobby = client.get(reverse("play:lobby")).content.decode()
    assert "Bot 2 (strong)" in lobby


def test_adding_a_bot_of_an_unknown_level_is_refused(players):
    match = services.create_match(players[1])
    client = logged_in(players[1])
    response = client.post(
        reverse("play:bot", args=[match.pk]), {"number": 2, "op": "add", "level": "godlike"}
    )
    assert response.status_code >= 400
    assert not levels_of(match)
    with pytest.raises(InvalidSetting):
        services.add_bot(players[1], match, 2, "godlike")


def test_the_level_is_named_in_every_language(players):
    outcome = services.play_with_bots(players[1], level="strong")
    seat = Seat.objects.get(match=outcome.match, number=2)
    with translation.override("ar"):
        arabic = seat.occupant_label
    assert "strong" not in arabic
    assert "2" in arabic
    assert arabic != seat.occupant_label


def test_the_worker_plays_each_bot_at_its_own_level(players, monkeypatch, settings):
    settings.BOT_DELAY_SECONDS = 0
    asked: list[tuple[int, str]] = []
    real = services.choose_action

    def spy(state: Any, seat: int, level: str = "normal", budget_ms: float = 300) -> Any:
        asked.append((seat, level))
        return real(state, seat, level="easy", budget_ms=budget_ms)

    monkeypatch.setattr(services, "choose_action", spy)
    match = services.create_match(players[1], seat=None)
    for number, level in ((1, "easy"), (2, "normal"), (3, "strong"), (4, "easy")):
        services.add_bot(players[1], match, number, level)
    services.start_match(players[1], match)
    for _turn in range(12):
        services.play_due_turn(match.pk)
    wanted = {1: "easy", 2: "normal", 3: "strong", 4: "easy"}
    assert asked
    assert all(level == wanted[seat] for seat, level in asked)
    assert {seat for seat, _level in asked} == {1, 2, 3, 4}


def test_a_rematch_keeps_the_bots_levels(players):
    outcome = services.play_with_bots(players[1], level="strong")
    rematch = services.open_full_table(
        {1: players[1]},
        mode=outcome.match.mode,
        play_timer=outcome.match.play_timer,
        bot_levels=levels_of(outcome.match),
    )
    assert levels_of(rematch.match) == {2: "strong", 3: "strong", 4: "strong"}
