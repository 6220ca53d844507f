"""Fixtures of the hardening tests: players and a clean slate of rate counters."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

PASSWORD = "a-long-test-passphrase-42"


@pytest.fixture
def make_user(db: None) -> Callable[[str], User]:
    def make(username: str) -> User:
        return User.objects.create_user(username=username, password=PASSWORD)

    return make
