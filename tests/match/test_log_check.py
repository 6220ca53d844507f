"""The tests' own log check (``tests.support.log_check.LogCheck``) catches tampering."""

from __future__ import annotations

import pytest

from games.match.models import Event
from tests.support.drivers import Table

pytestmark = pytest.mark.django_db


def test_an_event_lost_since_the_last_check_is_caught(table: Table):
    for _ in range(3):
        table.act()
    Event.objects.filter(match=table.outcome.match, seq=table.outcome.seq).delete()
    with pytest.raises(AssertionError):
        table.check_log(table.outcome.match)


def test_an_older_event_changed_behind_its_back_is_caught_when_the_deal_ends(table: Table):
    table.act({"bid": "pass"})
    first = Event.objects.get(match=table.outcome.match, seq=table.outcome.seq)
    table.act()
    # The first bid now claims to come from another seat.
    assert first.actor_seat is not None
    Event.objects.filter(pk=first.pk).update(actor_seat=first.actor_seat % 4 + 1)
    with pytest.raises(AssertionError):
        table.finish_deal()
