"""The pieces shared by the server-drawn SVG charts (score progression, rating history)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Tick:
    """A labelled position on an axis."""

    position: float
    label: str


@dataclass(frozen=True)
class Point:
    """One plotted value, with the label screen readers and tooltips give it."""

    x: float
    y: float
    label: str


def polyline(points: Sequence[Point]) -> str:
    """The points as an SVG ``points`` attribute."""
    return " ".join(f"{p.x},{p.y}" for p in points)
