"""The export_match and verify_matches management commands."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from games import rules
from games.match import services
from games.match.models import Event, Match
from tests.support.drivers import Table

pytestmark = pytest.mark.django_db


def export(match_id: int) -> str:
    out = io.StringIO()
    call_command("export_match", str(match_id), stdout=out)
    return out.getvalue()


def test_export_match_writes_the_finished_deals_only(table: Table):
    table.finish_deal()
    table.act()  # the second deal is under way
    match = table.outcome.match
    text = export(match.pk)
    document = rules.read_document(text)
    assert rules.write_document(document) == text
    assert document.mode == "classic"
    assert document.players == {"1": "alice", "2": "bob", "3": "carol", "4": "dave"}
    (record,) = document.rounds
    first_deal = Event.objects.get(match=match, seq=1).payload["deal"]
    assert record.deck == first_deal["deck"]
    assert record.extra == {"seed": first_deal["seed"], "commitment": first_deal["commitment"]}
    # The deal in progress stays secret: its seed appears nowhere.
    current = Event.objects.filter(match=match, kind="deal").latest("seq").payload["deal"]
    assert current["seed"] not in text
    replayed = rules.replay_document(document)
    assert replayed.results == table.state.results


def test_export_of_a_whole_match_scores_to_its_winner(table: Table):
    while table.state.phase is not rules.Phase.MATCH_OVER:
        table.finish_deal()
    match = Match.objects.get(pk=table.outcome.match.pk)
    replayed = rules.replay_document(rules.read_document(export(match.pk)))
    assert replayed.winner == match.winner
    assert replayed.score == {"A": match.score_a, "B": match.score_b}


def test_export_labels_bots_and_exports_an_unstarted_table(players):
    match = services.create_match(players[1])
    services.add_bot(players[1], match, 3)
    document = rules.read_document(export(match.pk))
    assert document.players == {"1": "alice", "3": "bot"}
    assert document.rounds == []


def test_export_of_an_unknown_match():
    with pytest.raises(CommandError, match="There is no match 404"):
        call_command("export_match", "404")


def test_verify_matches_passes_consistent_matches(table: Table, players):
    table.finish_deal()
    services.create_match(players[1])
    out = io.StringIO()
    call_command("verify_matches", stdout=out)
    assert "All 2 matches replay consistently." in out.getvalue()


def test_verify_matches_reports_each_inconsistency_and_fails(table: Table, players):
    table.finish_deal()
    broken = table.outcome.match
    Event.objects.filter(match=broken, seq=broken.seq).delete()
    services.create_match(players[1])
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 2 matches are inconsistent") as failure:
        call_command("verify_matches", stdout=out)
    assert failure.value.returncode == 1
    assert out.getvalue() == (
        f"match {broken.pk}: A snapshot refers to event {broken.seq}, which is not in the log.\n"
    )
