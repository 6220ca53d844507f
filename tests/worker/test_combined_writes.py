"""A turn's writes in one statement (PostgreSQL) leave exactly the rows the separate ones left.

``games.match.rows.combined_writes`` holds a recorded action's events and
the match's update until the outbox row is inserted, then sends the three
in one statement. The same turns are played twice from the same start,
with the statements combined and written one by one, each in a
transaction rolled back afterwards, and every row of the game's tables
must come out the same. On SQLite both runs write one by one; the test
still checks that the two paths agree there.
"""

from __future__ import annotations

import itertools
import random
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import rules
from games.match import dealing, rows, services, versions
from games.match.models import Announcement, Event, Match
from tests.support.clock import deadline_of

pytestmark = pytest.mark.django_db

# Enough turns for a whole match of four people the bots play once they
# have missed their turns: deal ends (with their statistics), deals after
# the pause, seats declaring "no projects" of their own, the rated end.
TURNS = 1000


def repeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals and bots' choices that come out the same at every call."""
    seeds = itertools.count(1000)
    monkeypatch.setattr(dealing, "new_seed", lambda: f"{next(seeds):064x}")
    chooser = random.Random(7)

    def choose(state: rules.State, seat: int, **_: Any) -> dict[str, Any]:
        legal = rules.legal_actions(state)
        # Sun whenever it may, so that deals are played out rather than passed.
        sun = [action for action in legal if action.get("bid") == "sun"]
        return sun[0] if sun else chooser.choice(legal)

    monkeypatch.setattr(services, "choose_action", choose)


def game_rows() -> dict[str, list[str]]:
    """Every row of the game's tables, keys left out (sequences do not roll back), and
    so references to rows made in the run (a rated match's seats)."""
    found: dict[str, list[str]] = {}
    kept = (Match, get_user_model())
    for model in apps.get_models():
        if model._meta.app_label not in ("games", "accounts"):
            continue
        names = [
            f.attname
            for f in model._meta.concrete_fields
            if not f.primary_key and (f.related_model is None or f.related_model in kept)
        ]
        found[model._meta.label] = sorted(
            repr(values) for values in model._default_manager.values_list(*names)
        )
    return found


def play(match_id: int, combine: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[int, Any]:
    """How many of TURNS due turns were played, and the rows after them, with the
    statements combined or not, in a transaction then rolled back."""
    repeat(monkeypatch)
    # The events' default time is the real one, not the tests' clock.
    monkeypatch.setattr(Event._meta.get_field("created_at"), "_get_default", timezone.now)
    monkeypatch.setattr(rows._for_connection(), "combines", combine)
    versions.STORE.forget()
    with transaction.atomic():
        later = deadline_of(Match(pk=match_id)) + timedelta(days=1)
        played = sum(services.play_due_turn(match_id, now=later) is not None for _ in range(TURNS))
        found = game_rows()
        transaction.set_rollback(True)
    versions.STORE.forget()
    return played, found


def test_combined_statements_write_the_rows_the_separate_ones_wrote(
    clock, start_table, monkeypatch: pytest.MonkeyPatch
):
    repeat(monkeypatch)
    monkeypatch.setattr(dealing, "first_dealer", lambda: 1)
    # A rated table, so that the match's end writes its rating too.
    match = start_table(rated=True).match
    separate_played, separate = play(match.pk, False, monkeypatch)
    combined_played, combined = play(match.pk, connection.vendor == "postgresql", monkeypatch)
    assert combined_played == separate_played
    # The turns played the match out: deal ends and new deals, each turn
    # with its outbox row, the statistics and the ratings.
    assert sum("'deal'" in row for row in separate["games.Event"]) >= 3
    assert len(separate["games.Announcement"]) >= separate_played
    assert separate["games.PlayerStats"]
    assert separate["games.RatedMatch"]
    differing = {
        label: sorted(set(found) ^ set(combined[label]))[:4]
        for label, found in separate.items()
        if found != combined[label]
    }
    assert not differing


# SQLite writes each row on its own: the statement exists on PostgreSQL only.
@pytest.mark.postgres
def test_a_turn_writes_its_rows_in_one_statement_on_postgresql(
    clock, start_table, monkeypatch: pytest.MonkeyPatch
):
    repeat(monkeypatch)
    match = start_table(bots=(1, 2, 3, 4)).match
    later = deadline_of(match) + timedelta(days=1)
    with CaptureQueriesContext(connection) as queries:
        turn = services.play_due_turn(match.pk, now=later)
    assert turn is not None
    assert turn.seat is not None
    # The event, the match and the outbox row: one statement (beside the reads,
    # the locking one of the match and its seats among them).
    [written] = [
        q["sql"]
        for q in queries
        if "INSERT INTO" in q["sql"] or q["sql"].startswith(("UPDATE", "DELETE"))
    ]
    assert written.startswith("WITH ")
    assert all(
        table in written for table in ('"games_event"', '"games_match"', '"games_announcement"')
    )
    assert written.count("VALUES") == 2  # the events (one bid, maybe declarations), the outbox
    stored = Match.objects.get(pk=match.pk)
    assert stored.seq > match.seq
    appended = Event.objects.filter(match=stored, seq__gt=match.seq)
    assert [event.seq for event in appended.order_by("seq")] == list(
        range(match.seq + 1, stored.seq + 1)
    )
    assert Announcement.objects.filter(match=stored, seq=stored.seq).count() == 1


# Prepared statements are PostgreSQL's.
@pytest.mark.postgres
def test_the_statements_of_a_turn_are_prepared_once_for_the_connection(
    clock, start_table, monkeypatch: pytest.MonkeyPatch
):
    repeat(monkeypatch)
    match = start_table(bots=(1, 2, 3, 4)).match

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return [statement for (statement,) in cursor.fetchall()]

    for _ in range(6):
        assert services.play_due_turn(match.pk, now=deadline_of(match) + timedelta(days=1))
    statements = prepared()
    # The match and its seats, locked and read; the turn's writes with its outbox row.
    [locking] = [sql for sql in statements if "FOR UPDATE OF s SKIP LOCKED" in sql]
    assert '"games_seat"' in locking
    writes = [sql for sql in statements if '"games_announcement"' in sql]
    assert writes
    assert all(sql.startswith("WITH ") and '"games_event"' in sql for sql in writes)
    # Once each: later turns run them again by name.
    assert len(statements) == len(set(statements))
    for _ in range(6):
        assert services.play_due_turn(match.pk, now=deadline_of(match) + timedelta(days=1))
    assert [sql for sql in prepared() if sql == locking] == [locking]


def test_an_event_stored_meanwhile_refuses_the_turn_and_nothing_is_written(
    clock, start_table, monkeypatch: pytest.MonkeyPatch
):
    repeat(monkeypatch)
    match = start_table(bots=(1, 2, 3, 4)).match
    later = deadline_of(match) + timedelta(days=1)
    announced = Announcement.objects.count()
    # A twin's event numbered as the turn's next, without the match row
    # knowing: only the unique (match, seq) can refuse the turn.
    twin = Event.objects.create(
        match_id=match.pk, seq=match.seq + 1, kind=Event.Kind.ABORT, payload={"abort": True}
    )
    assert services.play_due_turn(match.pk, now=later) is None
    stored = Match.objects.get(pk=match.pk)
    assert stored.seq == match.seq
    assert list(Event.objects.filter(match=stored, seq__gt=match.seq)) == [twin]
    assert Announcement.objects.count() == announced
