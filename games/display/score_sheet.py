"""The score sheet: one row per finished deal, rebuilt from the engine's results.

Every figure comes from ``RoundResult.explain()``; a row can be read from
either team's side (``perspective``), so a seated player sees "us" and
"them".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games import rules
from games.display import labels


@dataclass(frozen=True)
class TeamLine:
    """One team's figures in a deal."""

    team: str
    points: int
    total: int
    projects: int
    baloot: int


@dataclass(frozen=True)
class ScoreRow:
    """One finished deal as the score sheet shows it.

    ``projects_*`` are the card points of the projects that counted (D20),
    ``baloot_*`` the number of Baloot announced; ``defeated`` names the
    bidders' team when it lost the deal (D23) and ``sweep`` the team that took
    every trick (D25).
    """

    number: int
    dealer: int
    outcome: str
    contract: str
    bidder: int | None
    points_a: int
    points_b: int
    total_a: int
    total_b: int
    multiplier: int = 1
    gahwa: bool = False
    projects_a: int = 0
    projects_b: int = 0
    baloot_a: int = 0
    baloot_b: int = 0
    defeated: str | None = None
    sweep: str | None = None
    perspective: str = "A"
    outcome_code: str = "played"

    @property
    def us(self) -> TeamLine:
        """The figures of the team the sheet is read from."""
        return self._line(self.perspective)

    @property
    def them(self) -> TeamLine:
        """The figures of the other team."""
        return self._line("B" if self.perspective == "A" else "A")

    def _line(self, team: str) -> TeamLine:
        a = team == "A"
        return TeamLine(
            team=team,
            points=self.points_a if a else self.points_b,
            total=self.total_a if a else self.total_b,
            projects=self.projects_a if a else self.projects_b,
            baloot=self.baloot_a if a else self.baloot_b,
        )


def score_sheet(state: rules.State, perspective: str = "A") -> list[ScoreRow]:
    """A row per finished deal of ``state``, oldest first, read from team ``perspective``."""
    rows = []
    for number, result in enumerate(state.results, start=1):
        data = result.explain()
        contract = data["contract"]
        baloot = data.get("baloot_count", {"A": 0, "B": 0})
        defeated = data.get("bidders") if data.get("defeated") else None
        rows.append(
            ScoreRow(
                number=number,
                dealer=data["dealer"],
                outcome=str(labels.OUTCOMES.get(data["outcome"], data["outcome"])),
                contract=describe_contract(contract) if contract else "",
                bidder=contract["bidder"] if contract else None,
                points_a=data["points"]["A"],
                points_b=data["points"]["B"],
                total_a=data["score"]["A"],
                total_b=data["score"]["B"],
                multiplier=contract["multiplier"] if contract else 1,
                gahwa=bool(contract and contract["gahwa"]),
                projects_a=sum(p["value"] for p in data["projects"]["A"]),
                projects_b=sum(p["value"] for p in data["projects"]["B"]),
                baloot_a=baloot["A"],
                baloot_b=baloot["B"],
                defeated=defeated,
                sweep=data.get("sweep"),
                perspective=perspective,
                outcome_code=data["outcome"],
            )
        )
    return rows


def describe_contract(contract: dict[str, Any]) -> str:
    """A contract in words, such as "Hokum ♥ · Double · locked"."""
    parts = [str(labels.CONTRACTS.get(contract["type"], contract["type"]))]
    trump = contract.get("trump")
    if trump:
        parts[0] += f" {labels.SUIT_SYMBOLS[trump]}"
    if contract.get("gahwa"):
        parts.append(str(labels.GAHWA))
    elif contract.get("multiplier", 1) > 1:
        parts.append(str(labels.MULTIPLIERS[contract["multiplier"]]))
    if contract.get("lock"):
        parts.append(_("locked"))
    return " · ".join(parts)
