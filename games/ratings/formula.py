"""The rating formula: openskill's Plackett-Luce model with its published defaults.

A rated match is two teams of two, ranked by who won. A player who left the
match is rated as if their team had lost, whatever it did without them; the
other three are rated on the result as played. The number a person sees is
the ordinal (mu - 3 sigma, a rating the player is 99.7% likely to be above)
scaled to a familiar range: ``TARGET + ALPHA * (mu - Z * sigma)``. Everyone
starts at ``TARGET`` and climbs as the system grows sure of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

# The library's defaults, named here so the ratings page can print them.
MU = 25.0
SIGMA = 25.0 / 3
BETA = 25.0 / 6
TAU = 25.0 / 300
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

# The shown number: TARGET + ALPHA * (mu - Z * sigma).
Z = 3.0
ALPHA = 25.0
TARGET = 1000.0

TEAM_SEATS = {"A": (1, 3), "B": (2, 4)}


@dataclass(frozen=True)
class Skill:
    """A player's rating in one mode: the mean and the uncertainty of their skill."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> int:
        """The single number shown for this rating."""
        ordinal = MODEL.create_rating([self.mu, self.sigma]).ordinal(
            z=Z, alpha=ALPHA, target=TARGET
        )
        return round(ordinal)


def rate(
    skills: Mapping[int, Skill], winner: str, leavers: frozenset[int] = frozenset()
) -> dict[int, Skill]:
    """Everyone's skill after a match: ``skills`` by seat 1-4, ``winner`` "A" or "B".

    A seat in ``leavers`` is rated as a loss for its team whatever the
    result. Raises ValueError for a winner that is not a team or missing seats.
    """
    if winner not in TEAM_SEATS or set(skills) != {1, 2, 3, 4}:
        raise ValueError("a rated match has four seats and a winning team")
    as_played = _rated(skills, winner)
    beaten = _rated(skills, "B" if winner == "A" else "A") if leavers else as_played
    after = {}
    for seat in skills:
        won = seat in TEAM_SEATS[winner]
        after[seat] = beaten[seat] if seat in leavers and won else as_played[seat]
    return after


def _rated(skills: Mapping[int, Skill], winner: str) -> dict[int, Skill]:
    """The library's update for the two teams, ``winner`` ranked first."""
    teams = [
        [MODEL.create_rating([skills[s].mu, skills[s].sigma]) for s in TEAM_SEATS[t]] for t in "AB"
    ]
    ranks = [1.0, 2.0] if winner == "A" else [2.0, 1.0]
    new_a, new_b = MODEL.rate(teams, ranks=ranks)
    out: dict[int, Skill] = {}
    for team, rated in (("A", new_a), ("B", new_b)):
        for seat, rating in zip(TEAM_SEATS[team], rated, strict=True):
            out[seat] = Skill(rating.mu, rating.sigma)
    return out
