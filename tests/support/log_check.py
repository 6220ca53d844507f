"""Checks on a stored match: its log rebuilds to the state the services reported.

``rebuild_from_scratch`` trusts nothing but the event rows and the engine;
``assert_log_consistent`` compares it with every stored projection and runs
the site's own verifier; ``LogCheck`` does the same after every call of a
whole match at linear cost (each event folded and checked once, the full
rebuild and verifier once per deal); ``stored`` captures every row of a
match, to show that a refused call changed nothing.
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
    return fold_checked(state, list(Event.objects.filter(match=match).order_by("seq")), 0)


def fold_checked(state: rules.State, events: list[Event], last_seq: int) -> rules.State:
    """Fold ``events``, which follow event ``last_seq``, checking each deal and action."""
    numbers = list(range(last_seq + 1, last_seq + len(events) + 1))
    assert [e.seq for e in events] == numbers, "event numbers have gaps"
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


def assert_projections(match: Match, rebuilt: rules.State) -> None:
    """The match row's number, scores, winner, status and deadline agree with ``rebuilt``."""
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
    assert_projections(match, rebuilt)
    assert first_inconsistency(match) is None
    return rebuilt


class LogCheck:
    """``assert_log_consistent`` for a match checked after every call, at linear cost.

    Each call folds only the events stored since the last one (with the same
    checks as ``rebuild_from_scratch``) and compares the result with the
    state the service returned, with ``load_state`` and with the match's
    projections. Whenever a deal was dealt, the match ended or was stopped,
    the whole check runs as well: a rebuild from the first event and the
    site's verifier, ``first_inconsistency``. Asking for the whole check
    after every action made a whole match quadratic in its length.
    """

    def __init__(self) -> None:
        self.match_id: int | None = None
        self.seq = 0
        self.state: rules.State | None = None

    def __call__(self, match: Match | int, state: rules.State | None = None) -> rules.State:
        match = Match.objects.get(pk=match.pk if isinstance(match, Match) else match)
        if match.pk != self.match_id or self.state is None or match.seq < self.seq:
            # A new match (or one that went back): the whole check, then follow it.
            self.state = assert_log_consistent(match, state)
            self.match_id, self.seq = match.pk, match.seq
            return self.state
        events = list(Event.objects.filter(match=match, seq__gt=self.seq).order_by("seq"))
        rebuilt = fold_checked(self.state, events, self.seq)
        if state is not None:
            assert rebuilt == state, "the service's state differs from a rebuild of its log"
        assert load_state(match) == rebuilt, "loading from the snapshot differs from a rebuild"
        assert_projections(match, rebuilt)
        self.state, self.seq = rebuilt, match.seq
        over = match.status != Match.Status.PLAYING
        if over or any(event.kind != Event.Kind.ACTION for event in events):
            assert rebuild_from_scratch(match) == rebuilt
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
