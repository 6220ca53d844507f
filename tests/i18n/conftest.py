"""Fixtures of the translation tests: compiled catalogs, players and tables in every language.

The catalogs are compiled (``baloot_site.catalogs``) before the first test
here, so these tests also run straight from pytest without ``make``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test.signals import setting_changed
from django.utils import translation

from baloot_site.catalogs import catalogs, compile_catalogs
from games import rules
from games.match.models import Match
from tests.support.deals import seed_deals
from tests.support.drivers import play_until, played_deals, started_match


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs() -> Iterator[None]:
    """The .mo files, compiled from the committed .po files, and Django's cache reset."""
    compile_catalogs(catalogs())
    # Translations loaded by earlier tests were read before this compile:
    # Django drops its cache when told that the locale paths changed.
    setting_changed.send(
        sender=type(django_settings),
        setting="LOCALE_PATHS",
        value=django_settings.LOCALE_PATHS,
        enter=False,
    )
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_deals(monkeypatch, 7)


@pytest.fixture
def after_one_deal(players: dict[int, User]) -> Match:
    """A running match whose first played deal is over: result panel and score sheet are shown."""
    outcome = play_until(
        started_match(players),
        lambda s: played_deals(s) >= 1 and s.phase is rules.Phase.BIDDING,
    )
    return outcome.match
