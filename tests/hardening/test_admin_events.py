"""The admin shows a long match's events a page at a time, in a list of their own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules
from games.match import services
from games.match.models import Event
from stacks.documents import long_document
from tests.support.imports import store_queued_imports

pytestmark = pytest.mark.django_db


def test_a_long_matchs_events_are_paginated_apart_from_the_match(admin_client, players):
    text = long_document(32)
    services.queue_import(players[1], rules.read_document(text), text)
    store_queued_imports()
    match = Event.objects.latest("pk").match
    other = long_document(2)
    services.queue_import(players[2], rules.read_document(other), other)
    store_queued_imports()
    count = Event.objects.filter(match=match).count()
    assert count >= 287

    page = admin_client.get(reverse("admin:games_match_change", args=[match.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    # No event row on the match's own page, but a link to its events.
    assert "shown_payload" not in html
    assert '"bid": "pass"' not in html
    events_url = f"{reverse('admin:games_event_changelist')}?match={match.pk}"
    assert events_url.replace("&", "&amp;") in html or events_url in html

    first = admin_client.get(reverse("admin:games_event_changelist"), {"match": match.pk})
    assert first.status_code == 200
    shown = list(first.context["cl"].result_list)
    assert len(shown) == 100
    assert {event.match_id for event in shown} == {match.pk}
    assert [event.seq for event in shown] == list(range(1, 101))
    last_page = (count - 1) // 100 + 1
    assert first.context["cl"].paginator.num_pages == last_page
    last = admin_client.get(
        reverse("admin:games_event_changelist"), {"match": match.pk, "p": last_page}
    )
    assert [event.seq for event in last.context["cl"].result_list][-1] == count
    # "Show all" stays a page: the list never renders hundreds of rows at once.
    every = admin_client.get(
        reverse("admin:games_event_changelist"), {"match": match.pk, "all": ""}
    )
    assert len(every.context["cl"].result_list) == 100


def test_events_can_be_neither_added_nor_changed_nor_deleted(admin_client, players):
    text = long_document(2)
    services.queue_import(players[1], rules.read_document(text), text)
    store_queued_imports()
    event = Event.objects.first()
    assert admin_client.get(reverse("admin:games_event_add")).status_code == 403
    change = admin_client.post(reverse("admin:games_event_change", args=[event.pk]), {"seq": 999})
    assert change.status_code == 403
    delete = admin_client.post(
        reverse("admin:games_event_delete", args=[event.pk]), {"post": "yes"}
    )
    assert delete.status_code == 403
    assert Event.objects.get(pk=event.pk).seq == event.seq
