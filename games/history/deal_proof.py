"""What the site shows about a deal's fairness (``docs/fairness.md``).

While a deal is played, the table shows only its commitment: the SHA-256 of
the deal's secret seed. Once the deal is over, its replay shows the seed, the
check that the seed deals exactly the recorded deck and hashes to the
commitment, and the command that lets anyone check it again offline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import rules
from games.match.models import Match

VERIFY_COMMAND = "python -m games.rules verify-deal"


@dataclass(frozen=True)
class CurrentDeal:
    """The deal being played at a table: its number and its commitment, never its seed."""

    number: int
    commitment: str


@dataclass(frozen=True)
class DealProof:
    """A finished deal's seed and commitment, with what checking them gives.

    ``commitment_ok`` and ``deck_ok`` are None when the deal names no usable
    seed (an imported document need not carry one).
    """

    seed: str | None
    commitment: str | None
    commitment_ok: bool | None
    deck_ok: bool | None
    command: str

    @property
    def verified(self) -> bool:
        """True when the seed deals the deck and matches the commitment."""
        return bool(self.commitment_ok and self.deck_ok)


def current_deal(match: Match) -> CurrentDeal | None:
    """The number and commitment of the deal in progress at a running table, or None.

    Read from the match row, where the services keep the last deal's
    commitment beside its number: the seed of a deal in progress never
    leaves the event log.
    """
    if match.status != Match.Status.PLAYING or not match.deal_commitment:
        return None
    return CurrentDeal(number=match.deal_number, commitment=match.deal_commitment)


def deal_proof(deal: Mapping[str, Any], deck: Sequence[str]) -> DealProof:
    """The proof of a finished deal from its deal record (``seed``, ``commitment``).

    Call it for finished deals only: it reveals the seed.
    """
    seed = deal.get("seed")
    claimed = deal.get("commitment")
    seed = seed if isinstance(seed, str) else None
    claimed = claimed if isinstance(claimed, str) else None
    commitment_ok = deck_ok = None
    if seed is not None:
        try:
            commitment_ok = claimed is not None and rules.commitment(seed) == claimed.lower()
            deck_ok = rules.deck_from_seed(seed) == list(deck)
        except ValueError:
            commitment_ok = deck_ok = False
    parts = [VERIFY_COMMAND, seed or "SEED", claimed or "COMMITMENT", ",".join(deck)]
    return DealProof(
        seed=seed,
        commitment=claimed,
        commitment_ok=commitment_ok,
        deck_ok=deck_ok,
        command=" ".join(parts),
    )
