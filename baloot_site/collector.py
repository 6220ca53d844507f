"""Python's cycle collector, tuned for a long-running server process.

A server process keeps a large, long-lived heap (Django and its templates,
each watched match's reading and pictures, the parts kept for reuse) and
allocates fast while it draws. With the collector's defaults (a young
collection every 700 allocations, a full one whenever the long-lived
objects grew by a quarter) a busy daphne process paused often and for long,
every socket of the process waiting: the main source of its slowest pushes
(measured in docs/performance.md, ``bench/live_bench.py --gc-pauses DIR
--gc-defaults``).

``tune_for_server`` (called once the process has loaded everything it
needs) moves what exists then into the permanent generation, which
collections never walk again (it is never freed anyway), and collects
young objects every ``YOUNG_ALLOCATIONS`` allocations instead of 700: the
same garbage is found, in fewer and shorter stops.
"""

from __future__ import annotations

import gc

# Allocations (less deallocations) between two young collections, then young
# and middle collections between two of the next generation.
YOUNG_ALLOCATIONS = 50_000
YOUNG_PER_MIDDLE = 20
MIDDLE_PER_FULL = 20


def tune_for_server() -> None:
    """Freeze the start-up heap and space the collections out; call once, after start-up."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_ALLOCATIONS, YOUNG_PER_MIDDLE, MIDDLE_PER_FULL)
