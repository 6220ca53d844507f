"""A player's rating history as SVG geometry, drawn on the server like the score chart.

One line per mode (told apart by colour and dash pattern), the rating after
each rated match, a title and a description for screen readers. No script.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.display.chart import Point, Tick, polyline

WIDTH = 640
HEIGHT = 280
LEFT = 56
RIGHT = 20
TOP = 20
BOTTOM = 60
Y_STEP = 50
MAX_X_LABELS = 10


@dataclass(frozen=True)
class Line:
    """One mode's ratings."""

    mode: str
    name: str
    points: list[Point]
    dashed: bool

    @property
    def path(self) -> str:
        """The points as an SVG ``points`` attribute."""
        return polyline(self.points)


@dataclass(frozen=True)
class RatingChart:
    """Everything the chart template draws."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    lines: list[Line]
    title: str
    description: str
    x_label: str
    y_label: str


def rating_chart(
    history: Mapping[str, Sequence[int]], names: Mapping[str, str], start: int
) -> RatingChart | None:
    """The chart of ``history`` (mode -> ratings after each rated match, oldest first).

    ``names`` are the modes' names; ``start`` is everyone's first rating, the
    point each line starts from. None when there is nothing to draw.
    """
    series = {mode: [start, *values] for mode, values in history.items() if values}
    if not series:
        return None
    longest = max(len(values) for values in series.values()) - 1
    low = min(min(values) for values in series.values())
    high = max(max(values) for values in series.values())
    y_min = math.floor(low / Y_STEP) * Y_STEP
    y_max = max(math.ceil(high / Y_STEP) * Y_STEP, y_min + Y_STEP)
    right = WIDTH - RIGHT
    bottom = HEIGHT - BOTTOM

    def x_of(n: int) -> float:
        return round(LEFT + (right - LEFT) * n / max(longest, 1), 1)

    def y_of(value: int) -> float:
        return round(bottom - (bottom - TOP) * (value - y_min) / (y_max - y_min), 1)

    every = max(1, math.ceil(longest / MAX_X_LABELS))
    x_ticks = [Tick(x_of(n), str(n)) for n in range(0, longest + 1, every)]
    step = Y_STEP * max(1, math.ceil((y_max - y_min) / Y_STEP / 6))
    y_ticks = [Tick(y_of(v), str(v)) for v in range(y_min, y_max + 1, step)]
    lines = []
    for index, (mode, values) in enumerate(series.items()):
        name = names[mode]
        points = [
            Point(
                x_of(n),
                y_of(value),
                _("%(mode)s after rated match %(number)s: %(rating)s")
                % {"mode": name, "number": n, "rating": value}
                if n
                else _("%(mode)s at the start: %(rating)s") % {"mode": name, "rating": value},
            )
            for n, value in enumerate(values)
        ]
        lines.append(Line(mode=mode, name=name, points=points, dashed=index == 1))
    description = " ".join(
        ngettext(
            "%(mode)s: from %(first)s to %(last)s over %(count)s rated match.",
            "%(mode)s: from %(first)s to %(last)s over %(count)s rated matches.",
            len(series[line.mode]) - 1,
        )
        % {
            "mode": line.name,
            "first": start,
            "last": series[line.mode][-1],
            "count": len(series[line.mode]) - 1,
        }
        for line in lines
    )
    return RatingChart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        lines=lines,
        title=_("Rating history"),
        description=description,
        x_label=_("Rated match"),
        y_label=_("Rating"),
    )
