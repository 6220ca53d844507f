"""Deal snapshots (issue 10): versioned by the engine, and of a size that does
not grow with the match (each holds one deal's result, never the history)."""

from __future__ import annotations

import io
import json
import random

import pytest
from django.core.management import call_command

from games import rules
from games.match import services
from games.match.event_log import first_inconsistency, load_state, rebuild_state
from games.match.models import DealSnapshot, ImportJob, Match
from tests.support.drivers import Table
from tests.support.imports import store_queued_imports
from tests.support.players import create_player

pytestmark = pytest.mark.django_db


def _stale(match: Match, seq: int | None = None) -> None:
    """Mark one snapshot (default: the latest) as written by another engine version."""
    rows = DealSnapshot.objects.filter(match=match).order_by("-seq")
    row = rows.get(seq=seq) if seq is not None else rows.first()
    assert row is not None
    row.state = {**row.state, "engine": rules.ENGINE_VERSION - 1}
    row.save()


def test_every_snapshot_carries_the_engine_version(table: Table):
    table.calm = True
    table.play_deals(2)
    versions = {row["engine"] for row in DealSnapshot.objects.values_list("state", flat=True)}
    assert versions == {rules.ENGINE_VERSION}


def test_a_snapshot_of_another_version_is_ignored(table: Table):
    table.calm = True
    table.play_deals(3)
    for _ in range(5):
        table.act()
    match = Match.objects.get(pk=table.match.pk)
    _stale(match)
    assert load_state(match) == rebuild_state(match) == table.state
    # An earlier stale snapshot breaks the chain of results: rebuilt as well.
    first = DealSnapshot.objects.filter(match=match).order_by("seq").first()
    assert first is not None
    _stale(match, first.seq)
    assert load_state(match) == rebuild_state(match) == table.state
    # A stale cache is no fault of the log.
    assert first_inconsistency(match) is None
    out = io.StringIO()
    call_command("verify_matches", stdout=out)
    assert "All 1 matches replay consistently." in out.getvalue()


def test_play_goes_on_after_a_stale_snapshot(table: Table):
    table.calm = True
    table.finish_deal()
    _stale(table.match)
    table.play_deals(2)
    match = Match.objects.get(pk=table.match.pk)
    assert load_state(match) == rebuild_state(match) == table.state
    assert first_inconsistency(match) is None


def test_a_snapshot_that_differs_from_the_log_is_reported(table: Table):
    table.calm = True
    table.play_deals(2)
    row = DealSnapshot.objects.filter(match=table.match).order_by("-seq").first()
    assert row is not None
    row.state["state"]["score_a"] += 1
    row.save()
    assert first_inconsistency(table.match) == (
        f"Event {row.seq}: the snapshot differs from the replayed state"
    )


def test_snapshot_size_stays_bounded_over_200_all_passed_deals():
    rng = random.Random(200)
    document = rules.Document(mode="classic")
    state = rules.new_match("classic", 4)
    for _ in range(200):
        deck = rules.random_deck(rng)
        record = rules.RoundRecord(state.next_dealer, deck)
        state = rules.start_deal(state, deck)
        while state.phase is rules.Phase.BIDDING:
            action = {"seat": state.turn, "bid": "pass"}
            record.actions.append(action)
            state = rules.apply(state, action)
        document.rounds.append(record)
    text = rules.write_document(document)
    services.queue_import(create_player("archivist"), document, text)
    store_queued_imports()
    job = ImportJob.objects.latest("pk")
    assert job.status == ImportJob.Status.DONE, job.error
    match = job.match
    assert match is not None
    sizes = [
        len(json.dumps(row))
        for row in DealSnapshot.objects.filter(match=match)
        .order_by("seq")
        .values_list("state", flat=True)
    ]
    assert len(sizes) == 200
    # Only the previous deal's result is kept, never the history: the last
    # snapshot is the first plus that one result (and a digit or two more).
    assert sizes[-1] <= sizes[0] + 600, (sizes[0], sizes[-1])
    assert max(sizes) <= sizes[1] + 50
    assert load_state(match) == rebuild_state(match) == state
    assert len(load_state(match).results) == 200
    assert first_inconsistency(match) is None
