"""Fresh deals: a secret random seed per deal, turned into a deck anyone can recheck."""

from __future__ import annotations

import secrets
from typing import Any

from games import rules

SEED_BYTES = 32


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
