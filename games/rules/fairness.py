"""Decks from seeds: the deterministic shuffle anyone can recompute.

A deal's seed is 32 random bytes, written as 64 hex digits. Before the deal
the site shows the commitment ``SHA-256(seed bytes)``; after it, the seed.
The deck is a Fisher-Yates shuffle of the cards in the order 7S 8S 9S TS JS
QS KS AS 7H ... AC (suits S H D C, ranks 7 8 9 T J Q K A), driven by a byte
stream made of ``SHA-256(b"baloot/1 deck" + seed + counter)`` blocks, the
counter a 4-byte big-endian integer from 0. For i from 31 down to 1 the
shuffle reads 4-byte big-endian integers x from the stream, skipping any x
at or above ``(2**32 // (i + 1)) * (i + 1)`` so that no position is favoured,
and swaps the cards at i and ``x % (i + 1)``. The first card of the result is
the top of the deck (``notation.md``: Dealing from deck).
"""

from __future__ import annotations

import hashlib
import random

from .cards import CARD_STR

DOMAIN = b"baloot/1 deck"


def _seed_bytes(seed_hex: str) -> bytes:
    try:
        seed = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        raise ValueError("a seed is 64 hexadecimal digits") from None
    if len(seed) != 32:
        raise ValueError("a seed is 64 hexadecimal digits")
    return seed


def commitment(seed_hex: str) -> str:
    """The SHA-256 of the seed's bytes, as hex; raises ValueError for a bad seed."""
    return hashlib.sha256(_seed_bytes(seed_hex)).hexdigest()


def deck_from_seed(seed_hex: str) -> list[str]:
    """The deck a seed deals, top card first; raises ValueError for a bad seed."""
    seed = _seed_bytes(seed_hex)
    counter = 0
    buffer = b""

    def draw() -> int:
        nonlocal counter, buffer
        if len(buffer) < 4:
            buffer += hashlib.sha256(DOMAIN + seed + counter.to_bytes(4, "big")).digest()
            counter += 1
        value = int.from_bytes(buffer[:4], "big")
        buffer = buffer[4:]
        return value

    cards = list(CARD_STR)
    for i in range(31, 0, -1):
        n = i + 1
        limit = (2**32 // n) * n
        x = draw()
        while x >= limit:
            x = draw()
        j = x % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def random_deck(rng: random.Random) -> list[str]:
    """A deck shuffled by an injected random source (for tests and playouts); never raises."""
    cards = list(CARD_STR)
    rng.shuffle(cards)
    return cards


def deck_from_hands(dealer: int, hands: dict[int, list[str]], faceup: str, taker: int) -> list[str]:
    """The deck that deals these 8-card ``hands`` when ``taker`` takes ``faceup``.

    The first five cards of each hand go out first, in the order given, then
    the rest (notation.md: Dealing from deck). Raises ValueError unless the
    hands hold the 32 cards once, the taker's including the face-up card.
    """
    if sorted(c for h in hands.values() for c in h) != sorted(CARD_STR):
        raise ValueError("the hands must hold each of the 32 cards once")
    if faceup not in hands[taker]:
        raise ValueError("the taker's hand must include the face-up card")
    first = dealer % 4 + 1
    order = [(first + i - 1) % 4 + 1 for i in range(4)]
    rest = {s: [c for c in hands[s] if c != faceup or s != taker] for s in order}
    deck: list[str] = []
    for s in order:
        deck += rest[s][:3]
    for s in order:
        deck += rest[s][3:5]
    deck.append(faceup)
    for s in order:
        deck += rest[s][5:]
    return deck
