"""Deal analysis benchmark (issue 13): prints its figures, asserts nothing.

For seeded random deals played out by the bots (``--level``, easy by
default: their slips make the analysis name best cards, its dearest part),
the whole analysis the worker stores for a finished deal
(``games.worker.deal_analysis.analyse_deal``: the double-dummy value before
and after every card, and the best cards wherever a play lost points) is
timed. It prints each deal's figures, then the minimum, median and maximum
(process CPU time, the worker's work, and wall clock), and the machine's
load. Target: a deal's full analysis in at most 10 s of worker time.

Run: ``python bench/analysis_bench.py [--deals N] [--seed S] [--level L]``.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from games.bots import choose_action
from games.rules import Phase, State, apply, new_match, random_deck, start_deal
from games.worker.deal_analysis import analyse_deal

TARGET_SECONDS = 10.0


def finished_deal(rng: random.Random, level: str) -> tuple[list[State], list[dict[str, Any]]]:
    """A random deal played to its end by four bots, with cards played (not passed out)."""
    while True:
        state = start_deal(new_match(dealer=rng.randint(1, 4)), random_deck(rng))
        states, actions = [state], []
        while state.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            assert state.turn is not None
            action = choose_action(state, state.turn, level=level, budget_ms=50)
            state = apply(state, action)
            states.append(state)
            actions.append(action)
        if state.results[-1].outcome in ("played", "sawa"):
            return states, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--level", default="easy", choices=("easy", "normal", "strong"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deals = [finished_deal(rng, args.level) for _ in range(args.deals)]
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    walls: list[float] = []
    cpus: list[float] = []
    for number, (states, actions) in enumerate(deals, 1):
        wall, cpu = time.perf_counter(), time.process_time()
        plays = analyse_deal(states, actions)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        contract = states[-1].results[-1].contract or {}
        lost = sum(1 for p in plays if p["loss"])
        print(
            f"deal {number}: {contract.get('type', '?')}, {len(plays)} plays, {lost} lost points,"
            f" cpu {cpus[-1]:.2f} s, wall {walls[-1]:.2f} s"
        )
    for name, times in (("cpu", cpus), ("wall", walls)):
        print(
            f"{name}: min {min(times):.2f} s, median {statistics.median(times):.2f} s,"
            f" max {max(times):.2f} s over {len(times)} deals (target: {TARGET_SECONDS:.0f} s)"
        )
    print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")


if __name__ == "__main__":
    main()
