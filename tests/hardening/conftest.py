"""Fixtures of the hardening tests: a clock the tests move."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.support.clock import Clock


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """A frozen clock: deadlines and events are stamped with its time."""
    frozen = Clock()
    monkeypatch.setattr(timezone, "now", frozen)
    return frozen
