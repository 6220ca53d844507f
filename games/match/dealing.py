"""The site's draws: a secret random seed per deal (turned into a deck anyone can recheck),
the first dealer, and the seats of a table whose partners the site picks."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, TypeVar

from games import rules

SEED_BYTES = 32

T = TypeVar("T")


def new_seed() -> str:
    """A fresh secret seed: 32 bytes from the operating system's secure generator, as hex."""
    return secrets.token_hex(SEED_BYTES)


def new_deal_payload(dealer: int) -> dict[str, Any]:
    """The payload of a deal event: dealer, deck, the seed it came from and its commitment.

    The deck is stored as well as the seed so that rebuilding a match never shuffles again.
    """
    seed = new_seed()
    return {
        "deal": {
            "dealer": dealer,
            "deck": rules.deck_from_seed(seed),
            "seed": seed,
            "commitment": rules.commitment(seed),
        }
    }


def first_dealer() -> int:
    """A seat drawn at random to deal first."""
    return secrets.randbelow(4) + 1


def draw_seats(people: Sequence[T]) -> list[T]:
    """``people`` in an order drawn at random: the n-th sits in the n-th seat listed.

    From the operating system's secure generator, like the deals: nobody can
    steer who partners whom.
    """
    drawn = list(people)
    # Fisher-Yates, each swap drawn with ``secrets`` like every draw here.
    for last in range(len(drawn) - 1, 0, -1):
        other = secrets.randbelow(last + 1)
        drawn[last], drawn[other] = drawn[other], drawn[last]
    return drawn
