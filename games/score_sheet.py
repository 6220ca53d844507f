"""The score sheet: one row per finished deal, rebuilt from the engine's results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games import labels, rules


@dataclass(frozen=True)
class ScoreRow:
    """One finished deal as the score sheet shows it."""

    number: int
    dealer: int
    outcome: str
    contract: str
    bidder: int | None
    points_a: int
    points_b: int
    total_a: int
    total_b: int


def score_sheet(state: rules.State) -> list[ScoreRow]:
    """A row per finished deal of ``state``, oldest first."""
    rows = []
    for number, result in enumerate(state.results, start=1):
        data = result.to_json()
        contract = data["contract"]
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
