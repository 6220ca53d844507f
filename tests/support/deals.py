"""Seeded deals: the same decks and first dealers on every run.

The site draws deal seeds and first dealers with ``secrets``; a test whose
random players met fresh decks on every run could end its match early one
run in a hundred, and whole-match tests would vary in length.
"""

from __future__ import annotations

import random

import pytest

from games.match import dealing

# The seed every folder uses unless its conftest picks another.
DEFAULT_SEED = 20261202


class SeededSecrets:
    """Stands in for ``secrets`` in ``games.match.dealing``: the same draws on every run."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def token_hex(self, size: int) -> str:
        return self.rng.randbytes(size).hex()

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)


def seed_deals(monkeypatch: pytest.MonkeyPatch, seed: int = DEFAULT_SEED) -> None:
    """Make every deal seed and first dealer of the test come from ``random.Random(seed)``."""
    monkeypatch.setattr(dealing, "secrets", SeededSecrets(seed))
