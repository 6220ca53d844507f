"""The declaration phase tells nobody which hands hold a project (D17, D18).

Every seat makes its one declaration at its own turn, in turn order, with
the decision time every seat of its kind has (a person's 8 seconds, a bot's
short delay): the site never records a declaration for a seat, so a hand
without projects is asked, waited for and timed out like any other. Another
seat or a spectator sees the same pushes, pages, event numbers and
countdowns whether a seat holds a project or not, as long as it declares
the same thing; the log is in turn order, replays to the live state, and
the deal scores as the rules say.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import rules
from games.bots import choose_action, strong_auction
from games.history.notation_export import match_document
from games.match import dealing, services, versions
from games.match.deadlines import DECISION_SECONDS
from games.match.models import Event
from games.rules.projects import holds_project
from games.worker import due_turns
from tests.support.clock import START, Clock, deadline_of, reload
from tests.support.drivers import Table, seat_everyone, start_with_bots
from tests.support.log_check import assert_log_consistent
from tests.table.live import close_all, frame_at, socket_for

pytestmark = pytest.mark.django_db

# Seat 4 deals, so seat 1 bids first; it buys Sun and takes the face-up 8C.
# Seat 3 holds a Sira (9C TC JC), nobody else a project.
WITH_SIRA = {
    1: "AS KS 9S 7H 8C 9H JD KD",
    2: "TS 8S 8H TH QH 7D 9D AC",
    3: "QS JH AH 8D TD 9C TC JC",
    4: "JS KH QD AD 7C 7S QC KC",
}
# The same deal with seat 3's TC and seat 4's 7S swapped: no project anywhere.
# Both cards come after the bidding, so the first five cards are the same.
WITHOUT = {**WITH_SIRA, 3: "QS JH AH 8D TD 9C 7S JC", 4: "JS KH QD AD 7C TC QC KC"}
FACEUP = "8C"
HOLDER = 3

# What differs between two matches that show the same: their number, the
# digests of their pictures (which hold that number) and the CSRF tokens.
DIGEST = re.compile(r'(data-view|data-base)="[0-9a-f]+"')
TOKEN = re.compile(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+')
TAG = re.compile(r"<(/?)div\b")


def hands_of(deals: dict[int, str]) -> dict[int, list[str]]:
    return {seat: text.split() for seat, text in deals.items()}


def after_sun(deck: list[str]) -> rules.State:
    """The deal of ``deck``, seat 4 dealing, once seat 1 has bought Sun."""
    state = rules.start_deal(rules.new_match(dealer=4), deck)
    return rules.apply(state, {"seat": 1, "bid": "sun"})


def holders(state: rules.State) -> list[int]:
    """The seats whose hand holds a project."""
    return [seat for seat in (1, 2, 3, 4) if holds_project(state.hands[seat - 1])]


def deal_this(monkeypatch: pytest.MonkeyPatch, deck: list[str]) -> None:
    """The next match's first dealer is seat 4 and its first deal ``deck``."""
    monkeypatch.setattr(dealing, "first_dealer", lambda: 4)
    monkeypatch.setattr(
        dealing, "new_deal_payload", lambda dealer: {"deal": {"dealer": dealer, "deck": deck}}
    )


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def same_for_both(text: str, match_id: int) -> str:
    """``text`` without what tells two matches apart whatever they show."""
    text = text.replace(f"/{match_id}/", "/M/")
    text = re.sub(rf"\bMatch {match_id}\b", "Match M", text)
    text = DIGEST.sub(r'\1="digest"', text)
    return TOKEN.sub(r"\1token", text)


def without_hand(text: str) -> str:
    """``text`` without the viewer's own hand (the ``t-hand`` element)."""
    start = text.find('<div id="t-hand"')
    if start < 0:
        return text
    depth = 0
    for tag in TAG.finditer(text, start):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            end = text.index(">", tag.end()) + 1
            return text[:start] + text[end:]
    raise AssertionError("the hand is not closed")


async def watch_declaring(
    players: dict[int, User], watcher: User, clock: Clock
) -> tuple[dict[int | None, list[str]], list[Event]]:
    """Everything each seat and a spectator receive from the deal's start to its first card.

    Seat 1 buys Sun, every seat declares nothing, two seconds after the
    turn came to it, and seat 1 leads. Returns each viewer's pushes and
    pages (a full page and an htmx one after every action), made the same
    for any match, and the deal's events.
    """
    clock.set(START)
    match = await database_sync_to_async(seat_everyone)(players)
    outcome = await database_sync_to_async(services.start_match)(players[1], match)
    viewers: dict[int | None, User] = {seat: user for seat, user in players.items()}
    viewers[None] = watcher
    sockets = {v: await socket_for(match.pk, user) for v, user in viewers.items()}
    clients = {v: await database_sync_to_async(logged_in)(user) for v, user in viewers.items()}
    page = reverse("play:table", args=[match.pk])
    seen: dict[int | None, list[str]] = {v: [] for v in viewers}
    try:
        for viewer, socket in sockets.items():
            assert (await socket.connect())[0]
            seen[viewer] += await frame_at(socket, outcome.seq)
        while not outcome.state.trick:
            state = outcome.state
            assert state.turn is not None
            if state.phase is rules.Phase.BIDDING:
                action: dict[str, Any] = {"bid": "sun"}
            elif state.phase is rules.Phase.DECLARING:
                action = {"declare": []}
            else:
                action = {"play": rules.legal_actions(state)[0]["play"]}
            clock.advance(2)
            outcome = await database_sync_to_async(services.submit)(
                players[state.turn], match, action, outcome.seq
            )
            for viewer, socket in sockets.items():
                seen[viewer] += await frame_at(socket, outcome.seq)
            for viewer, client in clients.items():
                full = await database_sync_to_async(client.get)(page)
                part = await database_sync_to_async(client.get)(page, HTTP_HX_REQUEST="true")
                assert full.status_code == part.status_code == 200
                seen[viewer] += [full.content.decode(), part.content.decode()]
        for socket in sockets.values():
            await socket.receive_nothing(timeout=0.1)
    finally:
        await close_all(sockets.values())
    stored = await database_sync_to_async(reload)(match)
    replayed = await database_sync_to_async(services.load_state)(stored)
    assert replayed == outcome.state, "the log does not replay to the live state"
    events = await database_sync_to_async(
        lambda: list(Event.objects.filter(match=match).order_by("seq"))
    )()
    received = {v: [same_for_both(text, match.pk) for text in texts] for v, texts in seen.items()}
    return received, events


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_viewer_can_tell_whether_a_seat_holds_a_project(
    players: dict[int, User],
    make_user: Callable[[str], User],
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decks = [rules.deck_from_hands(4, hands_of(h), FACEUP, 1) for h in (WITH_SIRA, WITHOUT)]
    assert decks[0][:21] == decks[1][:21]
    assert [holders(after_sun(deck)) for deck in decks] == [[HOLDER], []]
    watcher = await database_sync_to_async(make_user)("wendy")
    seen = {}
    for name, deck in zip(("sira", "none"), decks, strict=True):
        deal_this(monkeypatch, deck)
        seen[name] = await watch_declaring(players, watcher, clock)
    (with_sira, events), (without, _events) = seen["sira"], seen["none"]
    # The spectator and seats 1 and 2, whose hands are the same in both
    # deals, receive exactly the same; seat 4 too but for its own hand.
    for viewer in (None, 1, 2):
        assert with_sira[viewer] == without[viewer], f"viewer {viewer} can tell"
    assert [without_hand(text) for text in with_sira[4]] == [
        without_hand(text) for text in without[4]
    ]
    # Each seat was asked in turn, a hand without projects as well: its one
    # choice offered at its own turn, one event each, in turn order.
    declared = [e for e in events if "declare" in e.payload]
    assert [e.payload for e in declared] == [{"seat": s, "declare": []} for s in (1, 2, 3, 4)]
    assert [e.seq for e in declared] == [3, 4, 5, 6]
    assert any("No projects" in text for text in with_sira[1])


def seed_where(wanted: Callable[[rules.State], bool]) -> str:
    """The first deal seed whose deck, seat 4 dealing and seat 1 buying Sun, gives ``wanted``."""
    for number in range(10_000):
        seed = f"{number:064x}"
        if wanted(after_sun(rules.deck_from_seed(seed))):
            return seed
    raise AssertionError("no such deal")


@pytest.fixture
def sira_for_seat_3(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next match's first deal: seat 4 deals, and once seat 1 buys Sun, seat 3 alone
    holds a project."""
    seed = seed_where(lambda state: holders(state) == [HOLDER])
    monkeypatch.setattr(dealing, "first_dealer", lambda: 4)
    monkeypatch.setattr(dealing, "new_seed", lambda: seed)


@pytest.mark.usefixtures("sira_for_seat_3")
def test_each_seat_declares_at_its_own_turn_and_the_deal_scores_as_the_rules_say(
    players: dict[int, User], tmp_path: Path
) -> None:
    table = Table(services.start_match(players[1], seat_everyone(players)), players)
    table.act({"bid": "sun"})
    # Nothing is recorded for seat 1, whose hand holds no project: it is asked.
    assert (table.outcome.seq, table.state.phase, table.state.turn) == (2, rules.Phase.DECLARING, 1)
    for seat in (1, 2, 3, 4):
        assert table.turn == seat
        legal = rules.legal_actions(table.state)
        assert (len(legal) > 1) == (seat == HOLDER)
        before = table.outcome.seq
        table.act({"declare": max(legal, key=lambda a: len(a["declare"]))["declare"]})
        # One event per call: the next seat's declaration waits for its turn.
        assert table.outcome.seq == before + 1
    assert table.state.phase is rules.Phase.PLAYING
    table.finish_deal()
    match = reload(table.match)
    events = Event.objects.filter(match=match, kind=Event.Kind.ACTION).order_by("seq")
    declared = [e.payload for e in events if "declare" in e.payload]
    assert [d["seat"] for d in declared] == [1, 2, 3, 4]
    assert [bool(d["declare"]) for d in declared] == [False, False, True, False]
    state = assert_log_consistent(match)
    # The exported document scores as the site did; seat 3's project
    # counts for its team, the only one that declared (D20).
    document = tmp_path / "match.json"
    document.write_text(rules.write_document(match_document(match)))
    scored = rules.score_document(rules.read_document(document.read_text()))
    first = scored["rounds"][0]
    assert [p["seat"] for p in first["projects"]["A"]] == [HOLDER]
    assert first["projects"]["B"] == []
    assert scored["score"] == state.score == {"A": match.score_a, "B": match.score_b}


@pytest.mark.usefixtures("sira_for_seat_3")
@pytest.mark.parametrize("bots", [(), (2, 3, 4)], ids=["people", "bots"])
def test_each_declaration_falls_due_at_its_own_deadline_after_a_restart_too(
    players: dict[int, User], clock: Clock, settings: Any, bots: tuple[int, ...]
) -> None:
    """People who let the timer run, or bots: one seat per deadline, whatever its hand."""
    settings.BOT_DELAY_SECONDS = 1.0
    clock.set(START)
    outcome = start_with_bots(players, bots)
    match = outcome.match
    services.submit(players[1], match, {"bid": "sun"}, outcome.seq)
    times = {seat: DECISION_SECONDS if seat not in bots else 1.0 for seat in (1, 2, 3, 4)}
    for seat in (1, 2, 3, 4):
        deadline = deadline_of(match)
        assert deadline == clock.now + timedelta(seconds=times[seat])
        # Nothing is due a moment before: the seat is still deciding.
        assert due_turns.advance_due(now=deadline - timedelta(milliseconds=1)) == 0
        # A restarted worker knows only the log.
        versions.STORE.forget()
        assert due_turns.advance_due(now=clock.set(deadline)) == 1
        last = Event.objects.filter(match=match).latest("seq")
        assert last.payload["seat"] == seat
        assert "declare" in last.payload
        if seat not in bots:
            # D17: the timer declares nothing, for a hand with projects as for any other.
            assert last.payload == {"seat": seat, "declare": [], "auto": True}
    state = assert_log_consistent(match)
    assert state.phase is rules.Phase.PLAYING
    declared = [
        e.payload["seat"] for e in Event.objects.filter(match=match) if "declare" in e.payload
    ]
    assert declared == [1, 2, 3, 4]


def strong_guesses(state: rules.State, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many guessed deals the strong bot plays out over the declaration of the seat to act."""
    played = 0
    play_out = strong_auction.play_out

    def counted(*args: Any) -> Any:
        nonlocal played
        played += 1
        return play_out(*args)

    monkeypatch.setattr(strong_auction, "play_out", counted)
    assert state.turn is not None
    choice = choose_action(state, state.turn, level="strong", budget_ms=10**9)
    assert choice in rules.legal_actions(state)
    monkeypatch.setattr(strong_auction, "play_out", play_out)
    return played


def test_a_strong_bot_thinks_as_long_over_a_hand_without_projects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The time a bot takes to declare is no tell either: the same work for either hand."""
    state = after_sun(rules.deck_from_hands(4, hands_of(WITH_SIRA), FACEUP, 1))
    bare = strong_guesses(state, monkeypatch)
    for seat in (1, 2):
        state = rules.apply(state, {"seat": seat, "declare": []})
    assert state.turn == HOLDER
    holding = strong_guesses(state, monkeypatch)
    assert bare == holding == strong_auction.DECLARE_SAMPLES
