"""Tables and the drivers that play them through ``games.match.services``.

- ``seat_everyone``: a waiting table with players[n] in seat n;
  ``started_match`` starts it, ``start_with_bots`` starts one with bots;
  ``quick_match`` starts a table the site seated, as quick match does: the
  only kind of table, with the lobby's rated ones, that may be rated.
- ``MatchDriver``: the one driver that plays a started match, and its three
  settings: ``Table`` (the seated players, the log checked after each action
  with ``LogCheck``, the whole check once per deal), ``Driver`` (for the seat
  to act, as the bots and timers do) and ``Player`` (the seated players, now
  and then an action the timer forces, so the log is what a real table
  writes; ``start_match`` seats and starts one).
- ``play_until``: Sun whenever it may be bid, so that deals are played out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
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


def quick_match(players: dict[int, User], **settings: Any) -> services.Outcome:
    """A started match of four people the site seated, players[n] in seat n, as quick
    match seats them (Classic and 15 s to play unless told): rated, where the rating
    policy allows it."""
    settings = {"mode": "classic", "play_timer": 15, **settings}
    return services.open_full_table(players, **settings)


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


class MatchDriver:
    """Plays a started match through ``games.match.services``: the one driver of the tests.

    With ``players`` the seated users submit (``services.submit``), without
    them each action is recorded for the seat to act (``services.submit_as_seat``),
    as the bots and timers do. Actions are random legal ones from
    ``random.Random(seed)``, unless ``calm`` (never double), ``prefer_sun``
    (bid Sun whenever it may, so that deals are played out) or ``timer_rate``
    (the share of actions the timer forces, recorded ``auto``) say otherwise.
    ``check`` runs the log check (``LogCheck``) after every action.
    """

    def __init__(
        self,
        outcome: services.Outcome,
        players: dict[int, User] | None = None,
        seed: int = 7,
        *,
        timer_rate: float = 0.0,
        prefer_sun: bool = False,
        check: bool = False,
    ) -> None:
        self.outcome = outcome
        self.players = players
        self.rng = random.Random(seed)
        self.timer_rate = timer_rate
        self.prefer_sun = prefer_sun
        self.check = check
        # Calm players never raise the stakes, so no Gahwa ends a match after
        # one deal and matches last long enough to measure growth.
        self.calm = False
        self.check_log = LogCheck()

    @property
    def match(self) -> Match:
        return self.outcome.match

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
        """Record ``action`` (default: the driver's choice) for the seat to act."""
        seat = self.turn
        auto = False
        if action is None:
            if self.timer_rate and self.rng.random() < self.timer_rate:
                action, auto = rules.forced_action(self.state), True
            else:
                action = self._choose()
        if auto or self.players is None:
            self.outcome = services.submit_as_seat(
                self.match, seat, action, self.outcome.seq, auto=auto
            )
        else:
            self.outcome = services.submit(self.players[seat], self.match, action, self.outcome.seq)
        if self.check:
            self.check_log(self.match, self.state)
        return self.outcome

    def _choose(self) -> dict[str, Any]:
        legal = rules.legal_actions(self.state)
        if self.calm:
            legal = [a for a in legal if a.get("double", "pass") == "pass"] or legal
        if self.prefer_sun:
            sun = [a for a in legal if a.get("bid") == "sun"]
            if sun:
                return sun[0]
        return self.rng.choice(legal)

    def step(self, choose: Callable[[rules.State], dict[str, Any]] | None = None) -> None:
        """One action for the seat to act: ``choose(state)``, else the driver's choice."""
        self.act(choose(self.state) if choose else None)

    def until(self, done: Callable[[rules.State], bool], limit: int = 2000) -> services.Outcome:
        """Act until ``done(state)``; fails after ``limit`` actions."""
        for _ in range(limit):
            if done(self.state):
                return self.outcome
            self.act()
        raise AssertionError("the match never reached the wanted position")

    def finish_deal(self) -> services.Outcome:
        """Act until the current deal is over (the next one is dealt, or the match ends)."""
        deals = len(self.state.results)
        while len(self.state.results) == deals:
            self.act()
        return self.outcome

    def play_until(self, phase: rules.Phase) -> services.Outcome:
        """Act until the deal reaches ``phase``; fails if it ends first."""
        deals = len(self.state.results)
        while self.state.phase is not phase:
            self.act()
            assert len(self.state.results) == deals, f"the deal ended before reaching {phase}"
        return self.outcome

    def play_deals(self, count: int) -> None:
        """Finish ``count`` deals, or fewer if the match ends first."""
        for _ in range(count):
            if self.state.phase is rules.Phase.MATCH_OVER:
                return
            self.finish_deal()

    def finish_match(self) -> Match:
        """Act until the match has its winner; returns the stored match."""
        while self.state.phase is not rules.Phase.MATCH_OVER:
            self.act()
        self.match.refresh_from_db()
        return self.match

    def reload(self) -> None:
        """Catch up with actions recorded by someone else (a person's POST, the worker)."""
        from games.match import versions

        self.outcome = services.Outcome(versions.read(self.match.pk))


class Table(MatchDriver):
    """The seated players submit random legal actions, the log checked after each."""

    players: dict[int, User]

    def __init__(self, outcome: services.Outcome, players: dict[int, User], seed: int = 7):
        super().__init__(outcome, players, seed, check=True)


class Driver(MatchDriver):
    """Random legal actions recorded for the seat to act, as the bots and timers do."""

    def __init__(self, outcome: services.Outcome, seed: int = 11) -> None:
        super().__init__(outcome, None, seed)


class Player(MatchDriver):
    """The seated players, one action in twelve forced by the timer."""

    players: dict[int, User]

    def __init__(self, outcome: services.Outcome, players: dict[int, User], seed: int) -> None:
        super().__init__(outcome, players, seed, timer_rate=1 / 12)


def start_match(
    players: dict[int, User], *, mode: str = "classic", private: bool = False, seed: int = 1
) -> Player:
    """A started match with players[n] in seat n, and its ``Player``."""
    return Player(started_match(players, mode=mode, is_private=private), players, seed)


def play_until(outcome: services.Outcome, done: Callable[[rules.State], bool]) -> services.Outcome:
    """Legal actions until ``done``, Sun whenever it may be bid, so that deals are played."""
    return MatchDriver(outcome, seed=3, prefer_sun=True).until(done, limit=3000)


def played_deals(state: rules.State) -> int:
    """How many deals of the match were played to the end (not passed out or redealt)."""
    results = rules.view_for(state, None)["results"]
    return sum(1 for result in results if result["outcome"] in ("played", "sawa"))


def random_readings(match_id: int, seed: int, events: int | None = None) -> Iterator[Any]:
    """The match read after each event while it is played out, mostly by the easy bot's
    choices and now and then by a random legal action; stops once it is over (or
    at event ``events``). Yields ``games.match.versions`` versions."""
    from games.bots import choose_action
    from games.match.versions import read as read_match

    rng = random.Random(seed)
    while True:
        reading = read_match(match_id)
        yield reading
        if reading.match.status != Match.Status.PLAYING or reading.seq == events:
            return
        state = reading.state
        if state.phase is rules.Phase.ROUND_OVER or state.turn is None:
            services.deal_next(match_id, reading.seq)
            continue
        if rng.random() < 0.8:
            action = choose_action(state, state.turn, level="easy")
        else:
            action = rng.choice(rules.legal_actions(state))
        services.submit_as_seat(match_id, state.turn, action, reading.seq)
