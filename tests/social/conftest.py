"""Fixtures of the quick-match, chat and rematch tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tests.support.clock import Clock


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """A frozen clock: queue entries, chat lines and offers are stamped with its time."""
    frozen = Clock()
    monkeypatch.setattr(timezone, "now", frozen)
    return frozen


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    """One process, one in-memory channel layer, whatever REDIS_URL says."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
