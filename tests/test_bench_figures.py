"""The live benchmark's figure of how late the bots' turns came (bench/live_tables.py).

The benchmark reads it off the event log of a run; here it is given event
logs whose answer is known, including the events it must leave out.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest


def _bench_module(name: str) -> Any:
    """A script of ``bench/``, which is not a package, loaded as a module."""
    path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Its dataclasses look their module up by name while being made.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


live_tables = _bench_module("live_tables")
turns_late = live_tables.turns_late
late_line = live_tables.late_line
DELAY = 0.5


def figures(late: list[float]) -> Any:
    """A run's figures with nothing measured but the lateness of its turns."""
    return live_tables.Figures("stack", 1, 4, 20.0, 0, [], 0, 0, turns_late=late)


# (events as (match, seq, created, kind), window start, window end, expected lateness)
LOGS = {
    "each turn counts what it took beyond the wait": (
        [
            (1, 1, 100.0, "deal"),
            (1, 2, 100.7, "action"),
            (1, 3, 101.2, "action"),
            (2, 1, 100.0, "deal"),
            (2, 2, 101.5, "action"),
        ],
        0.0,
        1000.0,
        [0.0, 0.2, 1.0],
    ),
    "events are put in order of their number within each match": (
        [(7, 3, 101.3, "action"), (7, 1, 100.0, "deal"), (7, 2, 100.6, "action")],
        0.0,
        1000.0,
        [0.1, 0.2],
    ),
    # A seat's empty declaration is recorded in the same turn as the play before it.
    "an action recorded with the turn before it has no wait to count": (
        [
            (1, 1, 100.0, "deal"),
            (1, 2, 100.6, "action"),
            (1, 3, 100.6001, "action"),
            (1, 4, 101.2, "action"),
        ],
        0.0,
        1000.0,
        [0.0999, 0.1],
    ),
    "only actions in the window count, and deals never": (
        [
            (1, 1, 100.0, "action"),
            (1, 2, 100.8, "action"),
            (1, 3, 106.0, "deal"),
            (1, 4, 106.9, "action"),
            (1, 5, 107.5, "action"),
        ],
        100.5,
        107.0,
        [0.3, 0.4],
    ),
}


@pytest.mark.parametrize(("events", "start", "end", "expected"), LOGS.values(), ids=list(LOGS))
def test_turns_late(
    events: list[tuple[int, int, float, str]], start: float, end: float, expected: list[float]
) -> None:
    assert sorted(turns_late(events, start, end, DELAY)) == pytest.approx(expected)


def test_the_line_gives_the_median_and_the_90th_percentile_in_milliseconds() -> None:
    late = [0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4, 0.5]
    line = late_line(figures(late), DELAY)
    assert line == "bots' turns came 500 ms (median), 900 ms (p90) later than their 0.5 s wait"


def test_a_run_without_turns_says_so() -> None:
    assert late_line(figures([]), DELAY) == "bots' turns: none measured"
