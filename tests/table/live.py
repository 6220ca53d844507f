"""Helpers of the WebSocket tests: authenticated sockets, frames, and the hidden-card oracle."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from baloot_site.asgi import application
from games.match.models import Event, Match
from tests.support.sockets import Socket

HOST = (b"host", b"localhost")
ORIGIN = (b"origin", b"http://localhost")
SEQ = re.compile(r'data-seq="(\d+)"')

SUIT_OF_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SUIT_OF_NAME = {"Spades": "S", "Hearts": "H", "Diamonds": "D", "Clubs": "C"}
RANK_OF_NAME = {
    "Ace": "A",
    "King": "K",
    "Queen": "Q",
    "Jack": "J",
    "Ten": "T",
    "Nine": "9",
    "Eight": "8",
    "Seven": "7",
}
RANK_OF_FACE = {"10": "T", "A": "A", "K": "K", "Q": "Q", "J": "J", "9": "9", "8": "8", "7": "7"}

# Every way the pages write a card: the data attribute, a card in an action's
# JSON, its spoken name, and its face (rank then suit symbol, possibly split
# by the card's markup).
DATA_CARD = re.compile(r'data-card="([^"]*)"')
JSON_CARD = re.compile(r'"([789TJQKA][SHDC])"')
NAMED_CARD = re.compile(
    r"\b(Ace|King|Queen|Jack|Ten|Nine|Eight|Seven) of (Spades|Hearts|Diamonds|Clubs)\b"
)
FACE_CARD = re.compile(
    r"(10|[789AKQJ])(?:</span><span class=\"suit\" aria-hidden=\"true\">)?([♠♥♦♣])"
)


def cards_in(text: str) -> set[str]:
    """Every card the HTML names, in any of the forms the table uses."""
    text = html.unescape(text)
    found = set(DATA_CARD.findall(text)) | set(JSON_CARD.findall(text))
    found |= {RANK_OF_NAME[r] + SUIT_OF_NAME[s] for r, s in NAMED_CARD.findall(text)}
    found |= {RANK_OF_FACE[r] + SUIT_OF_SYMBOL[s] for r, s in FACE_CARD.findall(text)}
    return found


def seq_of(frame: str) -> int:
    """The event number a rendered table carries."""
    match = SEQ.search(frame)
    assert match is not None, "a table without its event number"
    return int(match.group(1))


def session_cookie(user: User) -> bytes:
    """A Cookie header value for a logged-in session of ``user``."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def socket_for(
    match_id: int, user: User | None, *, origin: bytes = b"http://localhost", query: str = ""
) -> WebsocketCommunicator:
    """A socket to the match's table through the real ASGI application (not yet connected)."""
    headers = [HOST, (b"origin", origin)]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie))
    path = f"/ws/match/{match_id}/" + (f"?{query}" if query else "")
    return Socket(application, path, headers=headers)


async def frame_at(socket: WebsocketCommunicator, seq: int, timeout: float = 5) -> list[str]:
    """The frames received until one shows event ``seq``; fails if a later one comes first."""
    frames = []
    while True:
        frame = await socket.receive_from(timeout=timeout)
        frames.append(frame)
        shown = seq_of(frame)
        assert shown <= seq, f"a push from the future: {shown} > {seq}"
        if shown == seq:
            return frames


def hidden_cards(match: Match, seq: int, viewer: int | None, taker: int | None) -> set[str]:
    """The cards ``viewer`` must not see at event ``seq``: other seats' unplayed cards.

    Worked out from the stored deck and actions by the dealing rule of
    notation.md, not from the engine's view; ``taker`` is the seat that took
    the face-up card (public once the contract is made). The rules' one
    exception that applies during play is left out: declared project cards
    once the deal's first trick is over (D18).
    """
    deal_event = (
        Event.objects.filter(match=match, kind=Event.Kind.DEAL, seq__lte=seq)
        .order_by("-seq")
        .first()
    )
    assert deal_event is not None
    deal = deal_event.payload["deal"]
    actions = [
        e.payload
        for e in Event.objects.filter(match=match, seq__gt=deal_event.seq, seq__lte=seq).order_by(
            "seq"
        )
    ]
    hands = deal_hands(deal["deck"], deal["dealer"], taker)
    plays = 0
    for action in actions:
        if "play" in action:
            hands[action["seat"]].discard(action["play"])
            plays += 1
    revealed: set[str] = set()
    if plays >= 4:
        for action in actions:
            for project in action.get("declare", ()):
                revealed |= set(project["cards"])
    hidden: set[str] = set()
    for seat, cards in hands.items():
        if seat != viewer:
            hidden |= cards
    return hidden - revealed


def deal_hands(deck: list[str], dealer: int, taker: int | None) -> dict[int, set[str]]:
    """Who holds what after the deal (notation.md "Dealing from deck"), before any play."""
    order = [(dealer + i) % 4 + 1 for i in range(4)]
    hands: dict[int, set[str]] = {seat: set() for seat in order}
    for i, seat in enumerate(order):
        hands[seat] |= set(deck[3 * i : 3 * i + 3])
        hands[seat] |= set(deck[12 + 2 * i : 12 + 2 * i + 2])
    if taker is not None:
        position = 21
        for seat in order:
            count = 2 if seat == taker else 3
            hands[seat] |= set(deck[position : position + count])
            position += count
        hands[taker].add(deck[20])
    return hands


async def close_all(sockets: Iterable[WebsocketCommunicator]) -> None:
    """Disconnect every socket, whatever state the test left it in."""
    for socket in sockets:
        await socket.disconnect()
