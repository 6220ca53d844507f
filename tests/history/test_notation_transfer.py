"""Notation export and import: byte-for-byte round trips, and bad uploads that store nothing."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import rules
from games.history.notation_import import MAX_DOCUMENT_BYTES
from games.match.event_log import first_inconsistency
from games.match.models import DealSnapshot, Event, ImportJob, Match, Seat
from tests.history.pages import card_points, engine_deals, get_replay, hands, trick
from tests.support.imports import store_queued_imports

pytestmark = pytest.mark.django_db


def export(client: Client, match: Match, **params: str) -> bytes:
    response = client.get(reverse("games:export", args=[match.pk]), params)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert f'filename="baloot-match-{match.pk}.json"' in response["Content-Disposition"]
    return response.content


def upload(client: Client, data: bytes, name: str = "match.json"):
    return client.post(reverse("games:import"), {"document": SimpleUploadedFile(name, data)})


def imported_match(response) -> Match:
    """The match an accepted upload became, once the worker stored it."""
    assert response.status_code == 302, response.content.decode()[:2000]
    job = ImportJob.objects.latest("pk")
    assert response["Location"] == job.get_absolute_url()
    store_queued_imports()
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE, job.error
    assert job.match is not None
    return job.match


def stored_rows() -> tuple[int, ...]:
    return (
        Match.objects.count(),
        Seat.objects.count(),
        Event.objects.count(),
        DealSnapshot.objects.count(),
    )


def test_export_import_export_round_trips_byte_for_byte(client, finished: Match, players):
    client.force_login(players[3])
    first = export(client, finished)
    document = rules.read_document(first)
    assert document.players == {"1": "alice", "2": "bob", "3": "carol", "4": "dave"}
    for record, deal in zip(document.rounds, engine_deals(finished), strict=True):
        assert record.extra == {"commitment": deal.deal["commitment"], "seed": deal.deal["seed"]}
        assert record.actions == deal.actions
    assert rules.replay_document(document).winner == finished.winner

    match = imported_match(upload(client, first))
    assert match.imported
    assert match.is_private
    assert match.creator == players[3]
    assert match.status == Match.Status.FINISHED
    assert (match.score_a, match.score_b, match.winner) == (
        finished.score_a,
        finished.score_b,
        finished.winner,
    )
    assert first_inconsistency(match) is None
    second = export(client, match)
    assert second == first
    # And once more, from the imported copy of the imported copy.
    third = export(client, imported_match(upload(client, second)))
    assert third == first


def test_imported_match_is_replayed_like_any_other(client, finished: Match, players, make_user):
    client.force_login(players[1])
    match = imported_match(upload(client, export(client, finished)))
    original, copy = engine_deals(finished), engine_deals(match)
    assert [d.deal["deck"] for d in copy] == [d.deal["deck"] for d in original]
    for deal in copy:
        for step in (0, len(deal.actions) // 2, len(deal.actions)):
            page = get_replay(client, match, deal.number, step)
            same = get_replay(client, finished, deal.number, step)
            assert hands(page) == hands(same)
            assert trick(page) == trick(same)
            assert card_points(page) == card_points(same)
        # The seeds travelled with the document, so the deal still checks.
        assert "Verified: the seed deals exactly this deck" in page
    # The document's player names label the seats.
    detail = client.get(match.get_absolute_url()).content.decode()
    for name in ("alice", "bob", "carol", "dave"):
        assert f": {name}</li>" in detail


def test_only_the_uploader_and_holders_of_the_link_see_an_imported_match(
    client, finished: Match, players, make_user
):
    client.force_login(players[1])
    response = upload(client, export(client, finished))
    match = imported_match(response)
    done = client.get(response["Location"])
    assert done["Location"] == match.get_absolute_url()
    # The uploader's match page shows the link to share.
    shared = client.get(done["Location"]).content.decode()
    assert f"{match.get_absolute_url()}?invite={match.invite_token}" in shared
    client.force_login(make_user("friend"))
    urls = [
        match.get_absolute_url(),
        reverse("games:replay", args=[match.pk, 1]),
        reverse("games:export", args=[match.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    # The link leaves its token in the friend's session, for every page of the match.
    assert client.get(urls[0], {"invite": match.invite_token}, follow=True).status_code == 200
    for url in urls:
        assert client.get(url).status_code == 200


def test_imported_matches_never_count_in_statistics(client, finished: Match, players):
    client.force_login(players[2])
    won_before = client.get(reverse("accounts:profile")).context["won"]
    for _ in range(2):
        imported_match(upload(client, export(client, finished)))
    assert Match.objects.filter(imported=True).count() == 2
    for user in players.values():
        client.force_login(user)
        profile = client.get(reverse("accounts:profile"))
        assert profile.context["played"] == 1
        mine = client.get(reverse("games:mine"))
        assert [line.match.pk for line in mine.context["lines"]] == [finished.pk]
        for result in ("won", "lost"):
            lines = client.get(reverse("games:mine"), {"result": result}).context["lines"]
            assert all(not line.match.imported for line in lines)
    client.force_login(players[2])
    assert client.get(reverse("accounts:profile")).context["won"] == won_before


def not_json(text: bytes) -> bytes:
    return b"this is not JSON {"


def wrong_version(text: bytes) -> bytes:
    return text.replace(b'"baloot/1"', b'"baloot/2"', 1)


def illegal_action_at_round_3_action_17(text: bytes) -> bytes:
    """Action 17 of round 3 made by the seat after the one to act: well formed, out of turn."""
    data = json.loads(text)
    actions = data["rounds"][2]["actions"]
    assert len(actions) >= 17
    actions[16]["seat"] = actions[16]["seat"] % 4 + 1
    return json.dumps(data).encode()


def deck_of_31_cards(text: bytes) -> bytes:
    data = json.loads(text)
    data["rounds"][0]["deck"].pop()
    return json.dumps(data).encode()


def malformed_action(text: bytes) -> bytes:
    data = json.loads(text)
    data["rounds"][0]["actions"][0]["at"] = 5
    return json.dumps(data).encode()


def not_utf8(text: bytes) -> bytes:
    return b"\xff\xfe\x00"


def no_deal(text: bytes) -> bytes:
    return json.dumps({**json.loads(text), "rounds": []}).encode()


def wrong_dealer(text: bytes) -> bytes:
    data = json.loads(text)
    data["rounds"][1]["dealer"] = data["rounds"][0]["dealer"]
    return json.dumps(data).encode()


def too_large(text: bytes) -> bytes:
    return text + b" " * MAX_DOCUMENT_BYTES


@pytest.mark.parametrize(
    ("make_bad", "message"),
    [
        (not_json, "This is not a valid baloot/1 document: not valid JSON"),
        (wrong_version, 'This is not a valid baloot/1 document: "notation" must be "baloot/1"'),
        (illegal_action_at_round_3_action_17, "Round 3, action 17: It is not your turn"),
        (
            deck_of_31_cards,
            "This is not a valid baloot/1 document: round 1: A deck is a list of 32 cards",
        ),
        (
            malformed_action,
            "This is not a valid baloot/1 document: round 1, action 1: at must be a time stamp",
        ),
        (not_utf8, "The file is not UTF-8 text"),
        (no_deal, "The document holds no deal to replay."),
        (wrong_dealer, "Round 2: The dealer of this round must be seat"),
        (too_large, "The file is too large: a document may be at most 1 MB."),
    ],
    ids=lambda value: value.__name__ if callable(value) else None,
)
def test_bad_uploads_say_what_is_wrong_and_store_nothing(
    client, finished: Match, players, make_bad, message
):
    client.force_login(players[1])
    good = export(client, finished)
    before = stored_rows()
    response = upload(client, make_bad(good))
    assert response.status_code == 200
    errors = response.context["form"].errors["document"]
    assert len(errors) == 1
    assert errors[0].startswith(message), errors[0]
    assert message.split(":")[0] in response.content.decode()
    assert stored_rows() == before


def test_an_unfinished_last_deal_is_refused_at_the_action_after_its_last(
    client, finished: Match, players
):
    client.force_login(players[1])
    data = json.loads(export(client, finished))
    actions = data["rounds"][-1]["actions"]
    count = len(actions) - 1
    data["rounds"][-1]["actions"] = actions[:count]
    before = stored_rows()
    response = upload(client, json.dumps(data).encode())
    last = len(data["rounds"])
    assert response.context["form"].errors["document"] == [
        f"Round {last}, action {count + 1}: The deal is not finished"
    ]
    assert stored_rows() == before


def test_import_needs_the_csrf_token(finished: Match, players):
    client = Client(enforce_csrf_checks=True)
    client.force_login(players[1])
    text = export(client, finished)
    before = stored_rows()
    response = upload(client, text)
    assert response.status_code == 403
    assert stored_rows() == before
    page = client.get(reverse("games:import")).content.decode()
    assert 'name="csrfmiddlewaretoken"' in page
    assert 'enctype="multipart/form-data"' in page


def test_export_of_a_running_match_is_refused(client, new_match, players):
    player = new_match(seed=31)
    player.finish_deal()
    client.force_login(players[1])
    assert client.get(reverse("games:export", args=[player.match.pk])).status_code == 404


def test_the_import_page_lists_my_imports(client, finished: Match, players, make_user):
    client.force_login(players[1])
    match = imported_match(upload(client, export(client, finished)))
    page = client.get(reverse("games:import"))
    assert list(page.context["imported"]) == [match]
    assert f'href="{match.get_absolute_url()}"' in page.content.decode()
    assert match.invite_token not in page.content.decode()
    client.force_login(make_user("other"))
    assert list(client.get(reverse("games:import")).context["imported"]) == []
