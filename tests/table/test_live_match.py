"""Whole deals and matches through the real application: what every client receives.

One client per seat and a spectator watch a match driven on the server's
authority, and everything they are sent — every push, every page, every
htmx partial — is searched for another seat's unplayed cards. Then a person
plays a whole deal against bots by clicking the buttons the pushes offer.
"""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games import rules
from games.match import services
from games.match.models import Match
from games.table.picture import action_json
from tests.support.drivers import Driver, seat_everyone
from tests.table.live import cards_in, close_all, frame_at, hidden_cards, seq_of, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# A Quick match (both teams start at 52) keeps the whole match to a few deals.
MATCH_STEPS_LIMIT = 1500
PAGE_EVERY = 5
BUTTON = re.compile(r'name="action" value="([^"]*)"')


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def taker_of(state: rules.State) -> int | None:
    """The seat that took the face-up card, once the contract is public."""
    contract = rules.view_for(state, None)["contract"]
    return contract["taker"] if contract else None


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def leaks(match: Match, received: dict[int | None, list[str]], takers: dict[int, Any]) -> list[str]:
    """Every card a viewer received while another seat still held it unplayed."""
    found = []
    for viewer, documents in received.items():
        for document in documents:
            seq = seq_of(document)
            leaked = cards_in(document) & hidden_cards(match, seq, viewer, takers[seq])
            if leaked:
                found.append(f"viewer {viewer} at event {seq}: {sorted(leaked)}")
    return found


async def test_no_client_ever_receives_an_unplayed_card_of_another_seat(players, make_user):
    match = await database_sync_to_async(seat_everyone)(players, mode="quick")
    outcome = await database_sync_to_async(services.start_match)(players[1], match)
    watcher = await database_sync_to_async(make_user)("wendy")
    viewers: dict[int | None, Any] = {1: players[1], 2: players[2], 3: players[3], 4: players[4]}
    viewers[None] = watcher
    clients = {v: await database_sync_to_async(logged_in)(u) for v, u in viewers.items()}
    sockets = {v: await socket_for(match.pk, u) for v, u in viewers.items()}
    received: dict[int | None, list[str]] = {v: [] for v in viewers}
    takers = {outcome.seq: taker_of(outcome.state)}
    page = reverse("play:table", args=[match.pk])
    driver = Driver(outcome, seed=2024)
    try:
        for viewer, socket in sockets.items():
            assert (await socket.connect())[0]
            received[viewer] += await frame_at(socket, outcome.seq)
        for step in range(MATCH_STEPS_LIMIT):
            if driver.state.phase is rules.Phase.MATCH_OVER:
                break
            await database_sync_to_async(driver.step)()
            seq = driver.outcome.seq
            takers[seq] = taker_of(driver.state)
            for viewer, socket in sockets.items():
                received[viewer] += await frame_at(socket, seq)
            if step % PAGE_EVERY == 0 or driver.state.phase is rules.Phase.MATCH_OVER:
                for viewer, client in clients.items():
                    full = await database_sync_to_async(client.get)(page)
                    part = await database_sync_to_async(client.get)(page, HTTP_HX_REQUEST="true")
                    assert full.status_code == part.status_code == 200
                    received[viewer] += [full.content.decode(), part.content.decode()]
        for socket in sockets.values():
            await socket.receive_nothing(timeout=0.1)
    finally:
        await close_all(sockets.values())

    assert driver.state.phase is rules.Phase.MATCH_OVER, "the match did not finish"
    assert len(driver.state.results) >= 2
    assert await database_sync_to_async(leaks)(match, received, takers) == []
    # The search is not blind: each seat's frames do show its own cards, and
    # declared projects were shown to the other seats once revealed.
    for seat in (1, 2, 3, 4):
        assert max(len(cards_in(frame)) for frame in received[seat]) >= 8
    assert any("Match over" in f or "wins the match" in f for f in received[None])


def without_sawa(state: rules.State) -> dict[str, Any]:
    """A random legal action other than a Sawa claim."""
    choices = [a for a in rules.legal_actions(state) if not a.get("sawa")]
    return random.Random(len(state.deal_actions)).choice(choices)


async def test_a_person_plays_a_whole_deal_by_clicking_what_the_pushes_offer(make_user):
    human = await database_sync_to_async(make_user)("hana")
    outcome = await database_sync_to_async(services.play_with_bots)(human)
    match = outcome.match
    client = await database_sync_to_async(logged_in)(human)
    act = reverse("play:act", args=[match.pk])
    socket = await socket_for(match.pk, human)
    driver = Driver(outcome, seed=5)
    rng = random.Random(5)
    clicks = cards = 0
    try:
        assert (await socket.connect())[0]
        latest = (await frame_at(socket, outcome.seq))[-1]
        # Deals that everyone passes or that are redealt do not count: play
        # until a contract has been played out.
        while not any(r.contract for r in driver.state.results):
            if driver.state.turn == 1:
                offered = {html.unescape(v) for v in BUTTON.findall(latest)}
                legal = rules.view_for(driver.state, 1)["legal"]
                assert offered == {action_json(a) for a in legal if not a.get("baloot")}
                # No Sawa, so that the person surely plays cards by clicking.
                choice = rng.choice(sorted(a for a in offered if '"sawa"' not in a))
                response = await database_sync_to_async(client.post)(
                    act, {"action": choice, "expected_seq": seq_of(latest)}, HTTP_HX_REQUEST="true"
                )
                cards += '"play"' in choice
                assert response.status_code == 200, response.content.decode()
                assert "HX-Request" in response["Vary"]
                await database_sync_to_async(driver.reload)()
                assert seq_of(response.content.decode()) == driver.outcome.seq
                clicks += 1
            else:
                await database_sync_to_async(driver.step)(without_sawa)
            latest = (await frame_at(socket, driver.outcome.seq))[-1]
    finally:
        await socket.disconnect()

    assert clicks >= 2
    assert cards == 8, "the person played all eight cards by clicking them"
    deals = len(driver.state.results)
    assert f"Result of deal {deals}" in latest
    assert f"<td>{deals}</td>" in latest, "the score sheet has a row per deal"
    points = driver.state.results[-1].to_json()["points"]
    assert f"{points['A']} <small" in latest
