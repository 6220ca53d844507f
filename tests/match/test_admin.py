"""The admin: read-only matches and logs, verify and abort, players' matches."""

from __future__ import annotations

import json
from html import unescape

import pytest
from django.contrib import admin
from django.urls import reverse

from games.match.models import DealSnapshot, Event, Match, Seat
from tests.support.drivers import Table

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:games_match_changelist")


def change_url(match: Match) -> str:
    return reverse("admin:games_match_change", args=[match.pk])


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_match_list_filters_and_searches_by_player(admin_client, players, started):
    other = Match.objects.create(mode="quick")
    response = admin_client.get(CHANGELIST, {"q": "carol"})
    assert list(response.context["cl"].queryset) == [started.match]
    response = admin_client.get(CHANGELIST, {"status__exact": "waiting"})
    assert list(response.context["cl"].queryset) == [other]
    response = admin_client.get(CHANGELIST, {"mode__exact": "classic"})
    assert list(response.context["cl"].queryset) == [started.match]
    day = started.match.created_at
    response = admin_client.get(
        CHANGELIST,
        {"created_at__year": day.year, "created_at__month": day.month, "created_at__day": day.day},
    )
    assert set(response.context["cl"].queryset) == {started.match, other}
    assert response.status_code == 200


def test_match_page_shows_seats_and_the_log_without_the_current_deck(admin_client, table: Table):
    table.finish_deal()
    match = table.outcome.match
    response = admin_client.get(change_url(match))
    assert response.status_code == 200
    for name in ("alice", "bob", "carol", "dave"):
        assert name in unescape(response.content.decode())
    # The log is its own paginated list, filtered to the match.
    response = admin_client.get(reverse("admin:games_event_changelist"), {"match": match.pk})
    assert response.status_code == 200
    html = unescape(response.content.decode())
    finished_deal, current_deal = Event.objects.filter(match=match, kind="deal").order_by("seq")
    # The finished deal's seed may be read; the deal being played keeps its cards secret.
    assert finished_deal.payload["deal"]["seed"] in html
    assert current_deal.payload["deal"]["seed"] not in html
    assert current_deal.payload["deal"]["commitment"] in html
    assert json.dumps(finished_deal.payload["deal"]["deck"]) in html
    assert json.dumps(current_deal.payload["deal"]["deck"]) not in html


def test_events_cannot_be_added_changed_or_deleted_in_the_admin(admin_client, admin_user, started):
    match = started.match
    model_admin = admin.site._registry[Match]
    request = type("Request", (), {"user": admin_user})()
    event_admin = admin.site._registry[Event]
    assert not event_admin.has_add_permission(request)
    assert not event_admin.has_change_permission(request, Event.objects.get(match=match))
    assert not event_admin.has_delete_permission(request, Event.objects.get(match=match))
    for inline in model_admin.get_inline_instances(request, match):
        assert not inline.has_add_permission(request, match)
        assert not inline.has_change_permission(request, match)
        assert not inline.has_delete_permission(request, match)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, match)
    assert not model_admin.has_delete_permission(request, match)

    before = list(Event.objects.values())
    response = admin_client.post(
        change_url(match),
        {
            "status": "finished",
            "events-TOTAL_FORMS": "1",
            "events-INITIAL_FORMS": "1",
            "events-0-id": Event.objects.get(match=match).pk,
            "events-0-DELETE": "on",
        },
    )
    assert response.status_code == 403
    assert list(Event.objects.values()) == before
    assert admin_client.get(reverse("admin:games_match_add")).status_code == 403
    assert (
        admin_client.post(reverse("admin:games_match_delete", args=[match.pk])).status_code == 403
    )
    event_pk = Event.objects.get(match=match).pk
    assert (
        admin_client.post(reverse("admin:games_event_delete", args=[event_pk])).status_code == 403
    )
    assert list(Event.objects.values()) == before
    assert Match.objects.get(pk=match.pk).status == "playing"


def test_a_stored_event_can_never_be_saved_again(started):
    event = Event.objects.get(match=started.match)
    event.payload = {"deal": {}}
    with pytest.raises(ValueError, match="append-only"):
        event.save()


def test_verify_action_reports_clean_and_broken_matches(admin_client, table: Table):
    table.finish_deal()
    good = table.outcome.match
    response = admin_client.post(
        CHANGELIST, {"action": "verify", "_selected_action": [good.pk]}, follow=True
    )
    assert messages_of(response) == ["1 match replays consistently."]

    Match.objects.filter(pk=good.pk).update(score_a=99)
    response = admin_client.post(
        CHANGELIST, {"action": "verify", "_selected_action": [good.pk]}, follow=True
    )
    (message,) = messages_of(response)
    assert message.startswith(f"Match {good.pk} is inconsistent.")
    assert "score 99-" in message


def test_verify_names_the_first_bad_event(admin_client, table: Table):
    table.act({"bid": "sun"})
    match = table.outcome.match
    # Tamper with the stored deck: the seed no longer explains it.
    deal = Event.objects.get(match=match, seq=1)
    deck = deal.payload["deal"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    Event.objects.filter(pk=deal.pk).update(payload=deal.payload)
    response = admin_client.post(
        CHANGELIST, {"action": "verify", "_selected_action": [match.pk]}, follow=True
    )
    (message,) = messages_of(response)
    assert "Event 1: the deck does not come from the deal's seed" in message


def test_abort_action(admin_client, started):
    match = started.match
    response = admin_client.post(
        CHANGELIST, {"action": "abort", "_selected_action": [match.pk]}, follow=True
    )
    assert messages_of(response) == ["1 match aborted."]
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABORTED
    response = admin_client.post(
        CHANGELIST, {"action": "abort", "_selected_action": [match.pk]}, follow=True
    )
    assert messages_of(response) == [f"Match {match.pk}: This match is already over."]


def test_user_page_lists_the_players_matches(admin_client, players, started):
    response = admin_client.get(reverse("admin:auth_user_change", args=[players[2].pk]))
    assert response.status_code == 200
    assert change_url(started.match) in response.content.decode()
    assert Seat.objects.filter(user=players[2]).count() == 1


def test_snapshots_are_not_editable_in_the_admin():
    assert DealSnapshot not in admin.site._registry
