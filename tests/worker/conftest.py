"""Fixtures of the timer and worker tests: a clock the tests move, bots without delay."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tests.support.clock import Clock


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """A frozen clock: deadlines and events are stamped with its time."""
    frozen = Clock()
    monkeypatch.setattr(timezone, "now", frozen)
    return frozen


@pytest.fixture(autouse=True)
def _timer_settings(settings: Any) -> None:
    """Bots act as soon as it is their turn."""
    settings.BOT_DELAY_SECONDS = 0
