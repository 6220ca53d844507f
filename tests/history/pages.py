"""Reading the history pages back, and the engine's own fold to compare them with.

The pages carry what they show in ``data-`` attributes (a hand's cards, the
trick on the table, the card points), so the tests compare those against
the rules engine directly, independently of the site's replay code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.test import Client
from django.urls import reverse

from games import rules
from games.match.models import Event, Match

SEAT_HAND = re.compile(
    r'<section class="replay-seat[^"]*" data-seat="(\d)".*?<ul class="hand" data-cards="([^"]*)"',
    re.DOTALL,
)
TRICK = re.compile(r'<ol class="trick" data-cards="([^"]*)"')
CARD_POINTS = re.compile(r'data-card-points="(-?\d+) (-?\d+)"')
STEP = re.compile(r'<div id="replay" class="replay" data-step="(\d+)" data-last-step="(\d+)"')
ACTION_ITEM = re.compile(r'<li value="(\d+)" data-step="\d+" class="([^"]*)">(.*?)</li>', re.DOTALL)
CARD_IN_PAGE = re.compile(r'data-card="([789TJQKA][SHDC])"')


@dataclass
class EngineDeal:
    """One deal folded by the engine straight from the stored events."""

    number: int
    deal: dict[str, Any]
    actions: list[dict[str, Any]]
    states: list[rules.State]

    @property
    def finished(self) -> bool:
        return self.states[-1].phase in (rules.Phase.ROUND_OVER, rules.Phase.MATCH_OVER)


def engine_deals(match: Match) -> list[EngineDeal]:
    """Every deal of ``match``: ``rules.start_deal`` then ``rules.apply`` over its actions."""
    state = rules.new_match(match.mode, dealer=match.first_dealer or 4)
    deals: list[EngineDeal] = []
    for event in Event.objects.filter(match=match).order_by("seq"):
        if event.kind == Event.Kind.DEAL:
            state = rules.start_deal(state, event.payload["deal"]["deck"])
            deals.append(EngineDeal(len(deals) + 1, event.payload["deal"], [], [state]))
        else:
            state = rules.apply(state, event.payload)
            deals[-1].actions.append(event.payload)
            deals[-1].states.append(state)
    return deals


def replay_url(match: Match, number: int, step: object = None, **params: str) -> str:
    url = reverse("games:replay", args=[match.pk, number])
    query = {"step": step, **params} if step is not None else params
    if not query:
        return url
    return url + "?" + "&".join(f"{key}={value}" for key, value in query.items())


def get_replay(client: Client, match: Match, number: int, step: int) -> str:
    response = client.get(replay_url(match, number, step))
    assert response.status_code == 200, (number, step, response.status_code)
    return response.content.decode()


def hands(html: str) -> dict[int, list[str]]:
    """The four hands a replay page shows, by seat."""
    found = {int(seat): cards.split() for seat, cards in SEAT_HAND.findall(html)}
    assert sorted(found) == [1, 2, 3, 4], "the page must show four hands"
    return found


def trick(html: str) -> list[str]:
    """The cards of the trick in progress, in the order played ([] when none)."""
    match = TRICK.search(html)
    return match.group(1).split() if match else []


def card_points(html: str) -> dict[str, int]:
    match = CARD_POINTS.search(html)
    assert match is not None
    return {"A": int(match.group(1)), "B": int(match.group(2))}


def step_and_last(html: str) -> tuple[int, int]:
    match = STEP.search(html)
    assert match is not None
    return int(match.group(1)), int(match.group(2))


def action_items(html: str) -> list[tuple[int, str, str]]:
    """(step, css class, inner HTML) of every action in the list."""
    return [(int(step), css, inner) for step, css, inner in ACTION_ITEM.findall(html)]


def cards_shown(html: str) -> set[str]:
    """Every card drawn anywhere on a page."""
    return set(CARD_IN_PAGE.findall(html))
