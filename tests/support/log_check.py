"""Checks on a stored match: its log rebuilds to the state the services reported.

``rebuild_from_scratch`` trusts nothing but the event rows and the engine;
``assert_log_consistent`` compares it with every stored projection;
``stored`` captures every row of a match, to show that a refused call
changed nothing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Model

from games import rules
from games.match.event_log import first_inconsistency, load_state
from games.match.models import DealSnapshot, Event, Match, Seat


def rebuild_from_scratch(match: Match) -> rules.State:
    """Fold every stored event of ``match`` through the engine, trusting nothing else."""
    state = rules.new_match(match.mode, dealer=match.first_dealer or 4)
    events = list(Event.objects.filter(match=match).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1)), "event numbers have gaps"
    for event in events:
        if event.kind == Event.Kind.DEAL:
            deal = event.payload["deal"]
            assert deal["dealer"] == state.next_dealer
            assert rules.deck_from_seed(deal["seed"]) == deal["deck"]
            assert rules.commitment(deal["seed"]) == deal["commitment"]
            state = rules.start_deal(state, deal["deck"])
        elif event.kind == Event.Kind.ABORT:
            assert event.actor_seat is None
            assert event is events[-1], "nothing follows an abort"
        else:
            assert event.actor_seat == event.payload["seat"]
            state = rules.apply(state, event.payload)
    return state


def assert_log_consistent(match: Match | int, state: rules.State | None = None) -> rules.State:
    """After a service call: the stored log rebuilds to ``state`` and to every stored projection.

    Checks the from-scratch rebuild against the state the service returned,
    the snapshot-based ``load_state``, the match's projected fields, and
    ``first_inconsistency``. Returns the rebuilt state.
    """
    match = Match.objects.get(pk=match.pk if isinstance(match, Match) else match)
    rebuilt = rebuild_from_scratch(match)
    if state is not None:
        assert rebuilt == state, "the service's state differs from a rebuild of its log"
    assert load_state(match) == rebuilt, "loading from the snapshot differs from a rebuild"
    assert match.seq == Event.objects.filter(match=match).count()
    assert (match.score_a, match.score_b) == (rebuilt.score["A"], rebuilt.score["B"])
    assert match.winner == rebuilt.winner
    if match.status != Match.Status.ABORTED:
        if match.seq == 0:
            assert match.status == Match.Status.WAITING
        elif rebuilt.phase is rules.Phase.MATCH_OVER:
            assert match.status == Match.Status.FINISHED
            assert match.finished_at is not None
        else:
            assert match.status == Match.Status.PLAYING
            assert rebuilt.phase is not rules.Phase.DEALING
            if rebuilt.phase is rules.Phase.ROUND_OVER:
                # Between deals the worker deals on once the result was shown.
                assert settings.ROUND_PAUSE_SECONDS > 0
                assert match.deadline is not None
    assert first_inconsistency(match) is None
    return rebuilt


def stored(match_id: int) -> tuple[Any, ...]:
    """Every row stored about a match, to show that a refused call changed nothing."""

    def rows(model: type[Model], **filters: Any) -> list[dict[str, Any]]:
        return list(model.objects.filter(**filters).order_by("pk").values())  # type: ignore[attr-defined]

    return (
        rows(Match, pk=match_id),
        rows(Seat, match_id=match_id),
        rows(Event, match_id=match_id),
        rows(DealSnapshot, match_id=match_id),
    )
