"""Fixtures of the site tests: players, tables, and the replay check used after every call."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Model

from games import dealing, rules, services
from games.event_log import first_inconsistency, load_state
from games.models import DealSnapshot, Event, Match, Seat

PASSWORD = "a-long-test-passphrase-42"



@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal seeds and first dealers from a fixed generator, so every test plays the same cards.

    The site draws both with ``secrets``; a test whose random players met
    fresh decks on every run could end its match early one run in a hundred.
    """
    rng = random.Random(20261202)
    monkeypatch.setattr(dealing, "new_seed", lambda: rng.randbytes(32).hex())
    monkeypatch.setattr(dealing, "first_dealer", lambda: rng.randint(1, 4))


@pytest.fixture
def make_user(db: None) -> Callable[[str], User]:
    def make(username: str) -> User:
        return User.objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def players(make_user: Callable[[str], User]) -> dict[int, User]:
    """Four players; seat n is meant for players[n]."""
    return {n: make_user(name) for n, name in enumerate(("alice", "bob", "carol", "dave"), 1)}


def replay_from_scratch(match: Match) -> rules.State:
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
    """After a service call: the stored log replays to ``state`` and to every stored projection.

    Checks the from-scratch replay against the state the service returned,
    the snapshot-based ``load_state``, the match's projected fields, and
    ``first_inconsistency``. Returns the replayed state.
    """
    match = Match.objects.get(pk=match.pk if isinstance(match, Match) else match)
    replayed = replay_from_scratch(match)
    if state is not None:
        assert replayed == state, "the service's state differs from a replay of its log"
    assert load_state(match) == replayed, "loading from the snapshot differs from a replay"
    assert match.seq == Event.objects.filter(match=match).count()
    assert (match.score_a, match.score_b) == (replayed.score["A"], replayed.score["B"])
    assert match.winner == replayed.winner
    if match.status != Match.Status.ABORTED:
        if match.seq == 0:
            assert match.status == Match.Status.WAITING
        elif replayed.phase is rules.Phase.MATCH_OVER:
            assert match.status == Match.Status.FINISHED
            assert match.finished_at is not None
        else:
            assert match.status == Match.Status.PLAYING
            assert replayed.phase is not rules.Phase.DEALING
            if replayed.phase is rules.Phase.ROUND_OVER:
                # Between deals the worker deals on once the result was shown.
                assert settings.ROUND_PAUSE_SECONDS > 0
                assert match.deadline is not None
    assert first_inconsistency(match) is None
    return replayed


@pytest.fixture
def check_log() -> Callable[..., rules.State]:
    """The replay check to run after every service call."""
    return assert_log_consistent


def fingerprint(match_id: int) -> tuple[Any, ...]:
    """Everything stored about a match, to show that a refused call changed nothing."""

    def rows(model: type[Model], **filters: Any) -> list[dict[str, Any]]:
        return list(model.objects.filter(**filters).order_by("pk").values())  # type: ignore[attr-defined]

    return (
        rows(Match, pk=match_id),
        rows(Seat, match_id=match_id),
        rows(Event, match_id=match_id),
        rows(DealSnapshot, match_id=match_id),
    )


@pytest.fixture
def unchanged() -> Callable[[Match], Any]:
    """``with unchanged(match): ...`` asserts the block left the match's rows as they were."""
    from contextlib import contextmanager

    @contextmanager
    def guard(match: Match) -> Iterator[None]:
        before = fingerprint(match.pk)
        yield
        assert fingerprint(match.pk) == before, "a refused call changed the stored match"

    return guard


@pytest.fixture
def full_table(players: dict[int, User], check_log: Callable[..., rules.State]) -> Match:
    """A waiting Classic table with the four players in seats 1-4."""
    match = services.create_match(players[1])
    check_log(match)
    for number in (2, 3, 4):
        services.take_seat(players[number], match, number)
        check_log(match)
    return match


@pytest.fixture
def started(full_table: Match, players: dict[int, User], check_log: Any) -> services.Outcome:
    """The full table, started: its first deal is dealt."""
    outcome = services.start_match(players[1], full_table)
    check_log(full_table, outcome.state)
    return outcome


class Table:
    """Plays a started match through ``services.submit`` as its seated players would."""

    def __init__(self, outcome: services.Outcome, players: dict[int, User], seed: int = 7):
        self.outcome = outcome
        self.players = players
        self.rng = random.Random(seed)
        # Calm players never raise the stakes, so no Gahwa ends a match after
        # one deal and matches last long enough to measure growth.
        self.calm = False

    @property
    def state(self) -> rules.State:
        return self.outcome.state

    @property
    def turn(self) -> int:
        """The seat to act; the deal must be under way."""
        seat = self.state.turn
        assert seat is not None, "nobody is to act"
        return seat

    def act(self, action: dict[str, Any] | None = None) -> services.Outcome:
        """Submit ``action`` (default: a random legal one) for the seat to act."""
        seat = self.turn
        if action is None:
            legal = rules.legal_actions(self.state)
            if self.calm:
                legal = [a for a in legal if a.get("double", "pass") == "pass"] or legal
            action = self.rng.choice(legal)
        self.outcome = services.submit(
            self.players[seat], self.outcome.match, action, self.outcome.seq
        )
        assert_log_consistent(self.outcome.match, self.outcome.state)
        return self.outcome

    def finish_deal(self) -> services.Outcome:
        """Play random legal actions until the current deal is over (the next one is dealt)."""
        deals = len(self.state.results)
        while len(self.state.results) == deals:
            self.act()
        return self.outcome

    def play_until(self, phase: rules.Phase) -> services.Outcome:
        """Play random legal actions until the deal reaches ``phase``; fails if it ends first."""
        deals = len(self.state.results)
        while self.state.phase is not phase:
            self.act()
            assert len(self.state.results) == deals, f"the deal ended before reaching {phase}"
        return self.outcome


@pytest.fixture
def table(started: services.Outcome, players: dict[int, User]) -> Table:
    return Table(started, players)
