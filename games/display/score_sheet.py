"""The score sheet: one row per finished deal, in words, from one team's side.

The table and the match page show the same rows (the table fewer columns of
them). Every figure comes from the engine's ``RoundResult.explain()``
breakdown, which ``view_for`` hands out as ``results``; a row is read from
either team's side (``perspective``), so a seated player sees "us" and
"them".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.display import labels
from games.display.fields import Fields

TIMES = "\N{MULTIPLICATION SIGN}"


@dataclass(frozen=True)
class TeamLine(Fields):
    """One team's figures in a deal.

    ``projects`` are the card points of the projects that counted (D20),
    ``baloot`` the number of Baloot announced.
    """

    team: str
    points: int
    total: int
    projects: int
    baloot: int


@dataclass(frozen=True)
class SheetRow(Fields):
    """One finished deal as the score sheet shows it.

    ``contract`` is the contract in words, or what became of a deal without
    one; ``bidder`` and ``dealer`` are names; ``notes`` say Sawa, which team
    was defeated (D23) and which swept every trick (D25). ``replay_url``
    links the deal's replay where the page offers one.
    """

    number: int
    dealer: str
    contract: str
    bidder: str
    multiplier: str
    baloot: str
    notes: list[str]
    us: TeamLine
    them: TeamLine
    outcome: str
    replay_url: str = ""


def score_sheet(
    results: Sequence[Mapping[str, Any]],
    names: Mapping[int, str],
    perspective: str,
    team_labels: Mapping[str, str],
    replay_url: Callable[[int], str] | None = None,
) -> list[SheetRow]:
    """A row per finished deal, oldest first, read from team ``perspective``.

    ``results`` are the deals' ``explain()`` breakdowns; ``team_labels``
    names each team as the viewer calls it ("Us", "Team A"...);
    ``replay_url(number)``, when given, links each deal's replay.
    """
    other = "B" if perspective == "A" else "A"
    rows = []
    for number, data in enumerate(results, start=1):
        contract = data["contract"]
        lines = {team: _team_line(data, team) for team in "AB"}
        rows.append(
            SheetRow(
                number=number,
                dealer=names[data["dealer"]],
                contract=describe_contract(contract)
                if contract
                else str(labels.OUTCOMES.get(data["outcome"], data["outcome"])),
                bidder=names[contract["bidder"]] if contract else "",
                multiplier=_multiplier(contract),
                baloot=", ".join(
                    team_labels[line.team] + (f" {TIMES}{line.baloot}" if line.baloot > 1 else "")
                    for line in (lines[perspective], lines[other])
                    if line.baloot
                )
                or "—",
                notes=_notes(data, team_labels),
                us=lines[perspective],
                them=lines[other],
                outcome=data["outcome"],
                replay_url=replay_url(number) if replay_url else "",
            )
        )
    return rows


def describe_contract(contract: Mapping[str, Any]) -> str:
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


def _team_line(data: Mapping[str, Any], team: str) -> TeamLine:
    return TeamLine(
        team=team,
        points=data["points"][team],
        total=data["score"][team],
        projects=sum(p["value"] for p in data["projects"][team]),
        baloot=data.get("baloot_count", {"A": 0, "B": 0})[team],
    )


def _multiplier(contract: Mapping[str, Any] | None) -> str:
    if not contract:
        return "—"
    if contract["gahwa"]:
        return str(labels.GAHWA)
    return f"{TIMES}{contract['multiplier']}"


def _notes(data: Mapping[str, Any], team_labels: Mapping[str, str]) -> list[str]:
    notes = []
    if data["outcome"] == "sawa":
        notes.append(_("Sawa"))
    if data.get("defeated") and data.get("bidders"):
        notes.append(_("%(team)s defeated") % {"team": team_labels[data["bidders"]]})
    if data.get("sweep"):
        notes.append(_("Sweep by %(team)s") % {"team": team_labels[data["sweep"]]})
    return notes
