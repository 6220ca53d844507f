"""The score-progression chart of a match, drawn on the server as SVG geometry.

The page prints the SVG inline, so the chart needs no JavaScript: axes with
labelled ticks, the 152 target, one line per team (told apart by colour and
by dash pattern), a title and a description that screen readers announce.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.display.chart import Point, Tick, polyline

# notation.md: the match target, drawn as a dashed line.
TARGET = 152
WIDTH = 640
HEIGHT = 300
LEFT = 52
RIGHT = 20
TOP = 20
BOTTOM = 64
Y_STEP = 50
MAX_X_LABELS = 16


@dataclass(frozen=True)
class Series:
    """One team's line."""

    team: str
    name: str
    points: list[Point]
    dashed: bool

    @property
    def path(self) -> str:
        """The points as an SVG ``points`` attribute."""
        return polyline(self.points)


@dataclass(frozen=True)
class ScoreChart:
    """Everything the chart template draws."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    target_y: float
    series: list[Series]
    title: str
    description: str
    x_label: str
    y_label: str


def score_chart(
    totals: Sequence[tuple[int, int]],
    start: tuple[int, int],
    names: tuple[str, str],
    winner: str | None = None,
) -> ScoreChart:
    """The chart of two teams' running scores: ``start``, then ``totals`` after each deal.

    ``names`` name the two lines, in the order of the scores; ``winner`` is
    the name of the team that won the match, if any.
    """
    scores = [start, *totals]
    deals = len(scores) - 1
    top_value = max(TARGET, *(max(a, b) for a, b in scores))
    y_max = math.ceil(top_value / Y_STEP) * Y_STEP
    right = WIDTH - RIGHT
    bottom = HEIGHT - BOTTOM
    span_x = right - LEFT
    span_y = bottom - TOP

    # Coordinates are rounded to a tenth: the template prints them with
    # localisation off, and shorter numbers keep the page small.
    def x_of(deal: int) -> float:
        return round(LEFT + (span_x * deal / deals if deals else span_x / 2), 1)

    def y_of(value: int) -> float:
        return round(bottom - span_y * value / y_max, 1)

    every = max(1, math.ceil(deals / MAX_X_LABELS))
    x_ticks = [Tick(x_of(d), str(d)) for d in range(0, deals + 1, every)]
    y_ticks = [Tick(y_of(v), str(v)) for v in range(0, y_max + 1, Y_STEP)]
    series = []
    for index, (team, name) in enumerate(zip(("A", "B"), names, strict=True)):
        points = [
            Point(
                x_of(deal),
                y_of(score[index]),
                _("%(team)s after deal %(deal)s: %(score)s")
                % {"team": name, "deal": deal, "score": score[index]}
                if deal
                else _("%(team)s at the start: %(score)s") % {"team": name, "score": score[index]},
            )
            for deal, score in enumerate(scores)
        ]
        series.append(Series(team=team, name=name, points=points, dashed=index == 1))
    return ScoreChart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        target_y=y_of(TARGET),
        series=series,
        title=_("Score progression"),
        description=_describe(scores, names, winner),
        x_label=_("Deal"),
        y_label=_("Score"),
    )


def _describe(scores: list[tuple[int, int]], names: tuple[str, str], winner: str | None) -> str:
    """The chart in one or two sentences, for people who cannot see it."""
    deals = len(scores) - 1
    first, last = scores[0], scores[-1]
    text = ngettext(
        "Over %(deals)s deal, %(a)s went from %(a0)s to %(a1)s and %(b)s from %(b0)s to %(b1)s.",
        "Over %(deals)s deals, %(a)s went from %(a0)s to %(a1)s and %(b)s from %(b0)s to %(b1)s.",
        deals,
    ) % {
        "deals": deals,
        "a": names[0],
        "a0": first[0],
        "a1": last[0],
        "b": names[1],
        "b0": first[1],
        "b1": last[1],
    }
    if winner is not None:
        text += " " + _("%(team)s won the match.") % {"team": winner}
    return text
