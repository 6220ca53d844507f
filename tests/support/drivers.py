"""Tables and the drivers that play them through ``games.match.services``.

- ``seat_everyone``: a waiting table with players[n] in seat n;
  ``started_match`` starts it, ``start_with_bots`` starts one with bots.
- ``Table``: the seated players submit random legal actions (``services.submit``),
  the log checked after each (``LogCheck``: the whole check once per deal).
- ``Driver``: moves a match on for the seat to act (``services.submit_as_seat``),
  as the bots and timers do.
- ``Player`` / ``start_match``: the seated players, with now and then an action
  the timer forces, so the log is what a real table writes.
- ``play_until``: Sun whenever it may be bid, so that deals are played out.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User

from games import rules
from games.match import services
from games.match.models import Match
from tests.support.log_check import LogCheck


def seat_everyone(players: dict[int, User], **settings: Any) -> Match:
    """A waiting table with players[n] in seat n (the invite token passed, for private ones)."""
    match = services.create_match(players[1], **settings)
    for number in (2, 3, 4):
        services.take_seat(players[number], match, number, invite_token=match.invite_token)
    return match


def started_match(players: dict[int, User], **settings: Any) -> services.Outcome:
    """A started match of four people (Classic unless told): its first deal is dealt."""
    return services.start_match(players[1], seat_everyone(players, **settings))


def start_with_bots(
    players: dict[int, User], bots: tuple[int, ...] = (), **settings: Any
) -> services.Outcome:
    """A started table: bots in the seats ``bots`` lists, players[n] in the others."""
    owner = players[1]
    match = services.create_match(owner, seat=None if 1 in bots else 1, **settings)
    for number in (1, 2, 3, 4):
        if number in bots:
            services.add_bot(owner, match, number)
        elif number != 1:
            services.take_seat(players[number], match, number)
    return services.start_match(owner, match)


class Table:
    """Plays a started match through ``services.submit`` as its seated players would."""

    def __init__(self, outcome: services.Outcome, players: dict[int, User], seed: int = 7):
        self.outcome = outcome
        self.players = players
        self.rng = random.Random(seed)
        # Calm players never raise the stakes, so no Gahwa ends a match after
        # one deal and matches last long enough to measure growth.
        self.calm = False
        self.check_log = LogCheck()

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
        self.check_log(self.outcome.match, self.outcome.state)
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


class Driver:
    """Moves a match on through ``services.submit_as_seat``, as the bots and timers do."""

    def __init__(self, outcome: services.Outcome, seed: int = 11) -> None:
        self.outcome = outcome
        self.rng = random.Random(seed)

    @property
    def state(self) -> rules.State:
        return self.outcome.state

    def step(self, choose: Callable[[rules.State], dict[str, Any]] | None = None) -> None:
        """One action for the seat to act: ``choose(state)``, else a random legal one."""
        seat = self.state.turn
        assert seat is not None
        action = choose(self.state) if choose else self.rng.choice(rules.legal_actions(self.state))
        self.outcome = services.submit_as_seat(
            self.outcome.match.pk, seat, action, self.outcome.seq
        )

    def reload(self) -> None:
        """Catch up with actions recorded by someone else (a person's POST)."""
        match = Match.objects.get(pk=self.outcome.match.pk)
        self.outcome = services.Outcome(match, services.load_state(match))

    def until(self, done: Callable[[rules.State], bool], limit: int = 2000) -> None:
        """Random legal actions until ``done(state)``."""
        for _ in range(limit):
            if done(self.state):
                return
            self.step()
        raise AssertionError("the match never reached the wanted position")


class Player:
    """Drives a started match through the services as its four seated users would."""

    def __init__(self, outcome: services.Outcome, players: dict[int, User], seed: int) -> None:
        self.outcome = outcome
        self.players = players
        self.rng = random.Random(seed)

    @property
    def match(self) -> Match:
        return self.outcome.match

    @property
    def state(self) -> rules.State:
        return self.outcome.state

    def act(self) -> None:
        """One random legal action of the seat to act; one in twelve forced by the timer."""
        state = self.state
        seat = state.turn
        assert seat is not None
        if self.rng.random() < 1 / 12:
            forced = rules.forced_action(state)
            self.outcome = services.submit_as_seat(
                self.match, seat, forced, self.outcome.seq, auto=True
            )
            return
        action = self.rng.choice(rules.legal_actions(state))
        self.outcome = services.submit(self.players[seat], self.match, action, self.outcome.seq)

    def finish_deal(self) -> None:
        """Play until the deal in progress is over (the next one is dealt, or the match ends)."""
        deals = len(self.state.results)
        while len(self.state.results) == deals:
            self.act()

    def play_deals(self, count: int) -> None:
        """Finish ``count`` deals, or fewer if the match ends first."""
        for _ in range(count):
            if self.state.phase is rules.Phase.MATCH_OVER:
                return
            self.finish_deal()

    def finish_match(self) -> Match:
        while self.state.phase is not rules.Phase.MATCH_OVER:
            self.act()
        self.match.refresh_from_db()
        return self.match


def start_match(
    players: dict[int, User], *, mode: str = "classic", private: bool = False, seed: int = 1
) -> Player:
    """A started match with players[n] in seat n, and its ``Player``."""
    return Player(started_match(players, mode=mode, is_private=private), players, seed)


def play_until(outcome: services.Outcome, done: Callable[[rules.State], bool]) -> services.Outcome:
    """Legal actions until ``done``, Sun whenever it may be bid, so that deals are played."""
    rng = random.Random(3)
    for _ in range(3000):
        state = outcome.state
        if done(state):
            return outcome
        legal = rules.legal_actions(state)
        sun = [a for a in legal if a.get("bid") == "sun"]
        action = sun[0] if sun else rng.choice(legal)
        assert state.turn is not None
        outcome = services.submit_as_seat(outcome.match.pk, state.turn, action, outcome.seq)
    raise AssertionError("the match never reached the wanted position")


def played_deals(state: rules.State) -> int:
    """How many deals of the match were played to the end (not passed out or redealt)."""
    results = rules.view_for(state, None)["results"]
    return sum(1 for result in results if result["outcome"] in ("played", "sawa"))
