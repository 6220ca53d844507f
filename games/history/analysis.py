"""What the pages show of the worker's deal analyses: per card in the replay, per
player on the match page.

The worker (``games.worker.analysis``) stores one ``DealAnalysis`` per
finished deal; only rows of the current solver version are read. A row
exists only for a deal that is over, and these functions are only called
for deals the replay's door (``games.match.finished_deals``) or the match's
results show finished, so no figure of a deal in progress can reach a page.

Values are whole-deal card points: what each team ends the deal with when
all four play perfectly from that moment, every hand known. A play that
lowers its own team's figure lost points: from ``MISTAKE`` a mistake, from
``BLUNDER`` a blunder. Accuracy is the share of a player's plays that kept
the value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.display.cards import CardFace, card_face
from games.match.models import DealAnalysis, Match
from games.rules.solver import SOLVER_VERSION

# The losses that make a play a mistake or a blunder (card points).
MISTAKE = 10
BLUNDER = 20

GRADES = {
    "mistake": gettext_lazy("Mistake"),
    "blunder": gettext_lazy("Blunder"),
}

Plays = list[dict[str, Any]]
StepUrl = Callable[[int], str]


def grade_of(loss: int) -> str:
    """ "blunder", "mistake" or "" for a play that lost ``loss`` card points."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    return ""


def stored_plays(match: Match, number: int) -> Plays | None:
    """The analysed plays of finished deal ``number``, or None while it is not analysed.

    Call it only for a deal known to be over.
    """
    row = (
        DealAnalysis.objects.filter(match=match, number=number, solver_version=SOLVER_VERSION)
        .values_list("plays", flat=True)
        .first()
    )
    return list(row) if row is not None else None


# --- The replay ----------------------------------------------------------------


@dataclass(frozen=True)
class PlayNote:
    """The analysis of one card (or claim) in the replay."""

    step: int
    name: str
    card: CardFace | None
    before: tuple[int, int]
    after: tuple[int, int]
    loss: int
    best: list[CardFace]
    grade: str
    grade_label: str

    @property
    def kept(self) -> bool:
        """True when the play kept the value."""
        return self.loss == 0


@dataclass(frozen=True)
class ChartPoint:
    """A point of the evaluation line: team A's value after a play, linking to its step."""

    x: float
    y: float
    step: int
    url: str
    label: str
    grade: str


@dataclass(frozen=True)
class Tick:
    """A labelled position on an axis."""

    position: float
    label: str


@dataclass(frozen=True)
class EvaluationChart:
    """The evaluation line across a deal, drawn by ``games/analysis_chart.svg.html``."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: list[ChartPoint]
    y_ticks: list[Tick]
    half_y: float
    current_x: float | None
    title: str
    description: str

    @property
    def path(self) -> str:
        """The points as an SVG ``points`` attribute."""
        return " ".join(f"{p.x},{p.y}" for p in self.points)

    @property
    def marked(self) -> list[ChartPoint]:
        """The points of mistakes and blunders."""
        return [p for p in self.points if p.grade]


@dataclass(frozen=True)
class StepAnalysis:
    """What the replay shows of the analysis at one step."""

    note: PlayNote | None
    chart: EvaluationChart
    grades: dict[int, PlayNote]
    prev_mistake: str
    next_mistake: str


WIDTH = 480
HEIGHT = 210
LEFT = 40
RIGHT = 16
TOP = 16
BOTTOM = 36


def step_analysis(
    plays: Plays, step: int, names: Mapping[int, str], step_url: StepUrl
) -> StepAnalysis | None:
    """The analysis shown at ``step`` of a finished deal; None for a deal without cards."""
    if not plays:
        return None
    notes = [_note(play, names) for play in plays]
    by_step = {note.step: note for note in notes}
    graded = [note.step for note in notes if note.grade]
    return StepAnalysis(
        note=by_step.get(step),
        chart=_chart(plays, notes, step, step_url),
        grades={note.step: note for note in notes if note.grade},
        prev_mistake=next((step_url(s) for s in reversed(graded) if s < step), ""),
        next_mistake=next((step_url(s) for s in graded if s > step), ""),
    )


def _note(play: Mapping[str, Any], names: Mapping[int, str]) -> PlayNote:
    grade = grade_of(play["loss"])
    return PlayNote(
        step=play["step"],
        name=names[play["seat"]],
        card=card_face(play["card"]) if play["card"] else None,
        before=(play["before"][0], play["before"][1]),
        after=(play["after"][0], play["after"][1]),
        loss=play["loss"],
        best=[card_face(card) for card in play["best"]],
        grade=grade,
        grade_label=str(GRADES[grade]) if grade else "",
    )


def _chart(plays: Plays, notes: list[PlayNote], step: int, step_url: StepUrl) -> EvaluationChart:
    total = sum(plays[0]["before"])
    y_max = max(total, 1)
    right = WIDTH - RIGHT
    bottom = HEIGHT - BOTTOM
    count = len(plays)

    def x_of(index: int) -> float:
        return round(LEFT + (right - LEFT) * index / count, 1)

    def y_of(value: int) -> float:
        return round(bottom - (bottom - TOP) * value / y_max, 1)

    first = plays[0]
    points = [
        ChartPoint(
            x_of(0),
            y_of(first["before"][0]),
            first["step"] - 1,
            step_url(first["step"] - 1),
            _("Before the first card: Team A %(a)s, Team B %(b)s")
            % {"a": first["before"][0], "b": first["before"][1]},
            "",
        )
    ]
    for index, note in enumerate(notes, 1):
        label = _("After %(name)s's play: Team A %(a)s, Team B %(b)s") % {
            "name": note.name,
            "a": note.after[0],
            "b": note.after[1],
        }
        if note.grade:
            label += " " + _("(%(grade)s: %(loss)s card points lost)") % {
                "grade": note.grade_label,
                "loss": note.loss,
            }
        points.append(
            ChartPoint(
                x_of(index), y_of(note.after[0]), note.step, step_url(note.step), label, note.grade
            )
        )
    current = next((p.x for p in reversed(points) if p.step <= step), None)
    y_step = 40 if total > 100 else 20
    lost = sum(note.loss for note in notes)
    worst = sum(1 for note in notes if note.grade)
    return EvaluationChart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        points=points,
        y_ticks=[Tick(y_of(v), str(v)) for v in range(0, total + 1, y_step)],
        half_y=y_of(math.ceil(total / 2)),
        current_x=current if step >= first["step"] - 1 else None,
        title=_("Evaluation across the deal"),
        description=_(
            "Team A's card points with best play from each card on: from %(start)s before "
            "the first card to %(end)s at the end. The plays lost %(lost)s card points in "
            "all; %(marked)s were mistakes or blunders."
        )
        % {
            "start": first["before"][0],
            "end": plays[-1]["after"][0],
            "lost": lost,
            "marked": worst,
        },
    )


# --- The match page --------------------------------------------------------------


@dataclass(frozen=True)
class Accuracy:
    """One player's figures over some plays."""

    plays: int
    kept: int
    lost: int
    mistakes: int
    blunders: int

    @property
    def percent(self) -> int | None:
        """The share of plays that kept the value, in percent; None without plays."""
        if not self.plays:
            return None
        return round(100 * self.kept / self.plays)

    def __add__(self, other: Accuracy) -> Accuracy:
        return Accuracy(
            self.plays + other.plays,
            self.kept + other.kept,
            self.lost + other.lost,
            self.mistakes + other.mistakes,
            self.blunders + other.blunders,
        )


NONE = Accuracy(0, 0, 0, 0, 0)


def accuracy(plays: Iterable[Mapping[str, Any]]) -> Accuracy:
    """The figures of ``plays`` (all by one player)."""
    total = NONE
    for play in plays:
        grade = grade_of(play["loss"])
        total += Accuracy(
            1,
            1 if play["loss"] == 0 else 0,
            play["loss"],
            1 if grade == "mistake" else 0,
            1 if grade == "blunder" else 0,
        )
    return total


@dataclass(frozen=True)
class DealLine:
    """One deal on the match page: each seat's figures, and the replay link."""

    number: int
    url: str
    seats: list[Accuracy]


@dataclass(frozen=True)
class PlayerLine:
    """One seat over the whole match."""

    number: int
    name: str
    team: str
    total: Accuracy


@dataclass(frozen=True)
class MatchAnalysis:
    """The match page's analysis: per player over the match, and per deal."""

    players: list[PlayerLine]
    deals: list[DealLine]
    waiting: int


def match_analysis(
    match: Match, finished: int, names: Mapping[int, str], deal_url: Callable[[int], str]
) -> MatchAnalysis | None:
    """The analysis of ``match``'s first ``finished`` deals (those over); None before any."""
    if finished < 1:
        return None
    rows = sorted(
        DealAnalysis.objects.filter(
            match=match, solver_version=SOLVER_VERSION, number__lte=finished
        ).values_list("number", "plays")
    )
    deals = []
    totals = {seat: NONE for seat in (1, 2, 3, 4)}
    for number, plays in rows:
        if not plays:
            continue
        seats = [accuracy(p for p in plays if p["seat"] == seat) for seat in (1, 2, 3, 4)]
        for seat, figures in zip((1, 2, 3, 4), seats, strict=True):
            totals[seat] += figures
        deals.append(DealLine(number, deal_url(number), seats))
    analysed = {number for number, _plays in rows}
    return MatchAnalysis(
        players=[
            PlayerLine(seat, names[seat], _("Team A") if seat % 2 else _("Team B"), totals[seat])
            for seat in (1, 2, 3, 4)
        ],
        deals=deals,
        waiting=sum(1 for n in range(1, finished + 1) if n not in analysed),
    )
