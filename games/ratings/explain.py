"""The worked example of the ratings page, computed by the rating library at request time."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.ratings import formula


@dataclass(frozen=True)
class ExampleSeat:
    """One seat of the example: its rating before and after."""

    seat: int
    team: str
    left: bool
    before: formula.Skill
    after: formula.Skill

    @property
    def change(self) -> int:
        """How much the shown rating moved."""
        return self.after.shown - self.before.shown


@dataclass(frozen=True)
class Example:
    """One rated match of the example: who won, who left, and every seat's change."""

    winner: str
    leavers: frozenset[int]
    seats: list[ExampleSeat]


# Two new players (seats 1 and 3) against two who have played a while.
EXAMPLE_START = {
    1: formula.Skill(),
    2: formula.Skill(mu=27.0, sigma=4.0),
    3: formula.Skill(),
    4: formula.Skill(mu=24.0, sigma=3.0),
}


@cache
def examples() -> tuple[Example, Example]:
    """Team A wins as played; then the same match with seat 1 leaving before the end."""
    return _example("A", frozenset()), _example("A", frozenset({1}))


def _example(winner: str, leavers: frozenset[int]) -> Example:
    after = formula.rate(EXAMPLE_START, winner, leavers)
    seats = [
        ExampleSeat(
            seat=n,
            team="A" if n % 2 else "B",
            left=n in leavers,
            before=EXAMPLE_START[n],
            after=after[n],
        )
        for n in sorted(EXAMPLE_START)
    ]
    return Example(winner=winner, leavers=leavers, seats=seats)
