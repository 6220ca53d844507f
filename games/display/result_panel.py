"""The result panel: why a finished deal scored what it did, shown by the table and the replay.

``view_for`` gives each finished deal's ``explain()`` breakdown; this module
says, from the viewer's side of the table, why the last deal scored what it
did (card points, last trick, sweep, projects, rounding, multiplier,
Baloot, defeat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.display import labels
from games.display.fields import Fields
from games.display.score_sheet import TIMES, describe_contract
from games.display.shown import ShownOnce


@dataclass(frozen=True)
class ResultRow(Fields):
    """One line of the result panel: a label and each team's figure."""

    label: str
    us: str
    them: str
    strong: bool = False


@dataclass(frozen=True, repr=False, eq=False)
class ResultPanel(ShownOnce, Fields):
    """Why a deal scored what it scored."""

    number: int
    headline: str
    contract: str
    rows: list[ResultRow]
    notes: list[str]


def team_name(team: str, us: str, spectator: bool) -> str:
    """A team as the viewer calls it: theirs and the other, or A and B for a spectator."""
    if spectator:
        return _("Team A") if team == "A" else _("Team B")
    return _("your team") if team == us else _("the other team")


def result_panel(
    results: Sequence[Mapping[str, Any]], names: Mapping[int, str], us: str, *, spectator: bool
) -> ResultPanel | None:
    if not results:
        return None
    r = results[-1]
    them = "B" if us == "A" else "A"
    number = len(results)
    outcome = r["outcome"]
    contract = r["contract"]
    if outcome == "all_passed":
        return ResultPanel(
            number, _("Everyone passed twice: no score, the deal moves on."), "", [], []
        )
    if outcome == "redeal":
        seat = r.get("redeal_seat")
        headline = _(
            "%(name)s asked for a redeal with a zero-point hand: the same dealer deals again."
        ) % {"name": names[seat] if seat else "?"}
        return ResultPanel(number, headline, "", [], [])

    def pair(key: str) -> tuple[int, int]:
        return r[key][us], r[key][them]

    def row(label: str, values: tuple[Any, Any], strong: bool = False) -> ResultRow:
        return ResultRow(label, str(values[0]), str(values[1]), strong)

    def bonus(team: str | None, amount: int) -> tuple[str, str]:
        return (f"+{amount}" if team == us else "—", f"+{amount}" if team == them else "—")

    sun = contract["type"] != "hokum"
    rows = [
        row(_("Card points from tricks"), pair("trick_points")),
        ResultRow(_("Last trick"), *bonus(r["last_trick"], 10)),
    ]
    if r["sweep"]:
        rows.append(ResultRow(_("Sweep: every trick"), *bonus(r["sweep"], 90)))
    rows.append(row(_("Projects"), pair("project_points")))
    rows.append(row(_("Total"), pair("totals"), strong=True))
    rows.append(
        row(
            _("Converted (Sun: rounded to ten, a 5 stays, ÷ 5)")
            if sun
            else _("Converted (Hokum: rounded to ten, 5 up, ÷ 10)"),
            pair("converted"),
        )
    )
    baloots = r["baloot_count"]
    if baloots[us] or baloots[them]:
        rows.append(
            ResultRow(_("Baloot (+2 each)"), f"{TIMES}{baloots[us]}", f"{TIMES}{baloots[them]}")
        )
    rows.append(row(_("Points this deal"), pair("points"), strong=True))
    rows.append(row(_("Match score"), pair("score")))

    notes = []
    bidders = r["bidders"]
    bidders_name = team_name(bidders, us, spectator)
    if r.get("sawa_seat"):
        notes.append(
            _("%(name)s claimed Sawa: %(team)s took every remaining card.")
            % {
                "name": names[r["sawa_seat"]],
                "team": team_name("A" if r["sawa_seat"] % 2 else "B", us, spectator),
            }
        )
    for team in (us, them):
        for project in r["projects"][team]:
            notes.append(
                _("%(name)s's %(project)s counts %(points)s.")
                % {
                    "name": names[project["seat"]],
                    "project": labels.PROJECTS.get(project["project"], project["project"]),
                    "points": project["value"],
                }
            )
    if contract["gahwa"]:
        notes.append(_("Gahwa: the winner of the deal takes 152 and the match."))
    elif contract["multiplier"] > 1:
        notes.append(
            _(
                "%(call)s (%(times)s): the winner of the deal takes both teams' points, "
                "multiplied, plus 2 for every Baloot."
            )
            % {
                "call": labels.MULTIPLIERS[contract["multiplier"]],
                "times": f"{TIMES}{contract['multiplier']}",
            }
        )
    if r["defeated"]:
        notes.append(
            _(
                "The bidders (%(team)s) lost the deal: "
                "everything they earned goes to the other team."
            )
            % {"team": bidders_name}
        )
    elif r["tie"] and contract["multiplier"] == 1 and not contract["gahwa"]:
        notes.append(_("An exact tie: each team keeps its own points."))
    winner = r["deal_winner"]
    if winner:
        headline = _("Deal %(number)s won by %(team)s.") % {
            "number": number,
            "team": team_name(winner, us, spectator),
        }
    else:
        headline = _("Deal %(number)s is a tie.") % {"number": number}
    return ResultPanel(
        number,
        headline,
        describe_contract(contract)
        + " · "
        + _("bought by %(name)s") % {"name": names[contract["bidder"]]},
        rows,
        notes,
    )
