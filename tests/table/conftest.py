"""Fixtures of the lobby, table and WebSocket tests."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.match import services
from tests.support.drivers import started_match


@pytest.fixture
def running(players: dict[int, User]) -> services.Outcome:
    """A started Classic table of four people: its first deal is dealt."""
    return started_match(players)
