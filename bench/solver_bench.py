"""Double-dummy solver benchmark (issue 13): prints its figures, asserts nothing.

For seeded random deals (random bids and calls until a contract stands), the
whole position at the first card is solved exactly, every hand known; the
benchmark prints the minimum, median and maximum solve time (wall clock and
process CPU time: on a shared machine CPU time shows the work, wall time
what a caller waits), the contracts seen, and the machine's load.

Run: ``python bench/solver_bench.py [--deals N] [--seed S] [--tricks-left K]``.
``--tricks-left K`` solves positions with K tricks left instead (the deal
played at random up to there), the size the bots' search works on.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from games.rules import (
    Phase,
    State,
    apply,
    legal_actions,
    new_match,
    random_deck,
    solver,
    start_deal,
)


def deal_in_play(rng: random.Random) -> State:
    """A random deal at its first card."""
    while True:
        state = start_deal(new_match(dealer=rng.randint(1, 4)), random_deck(rng))
        while state.phase not in (Phase.PLAYING, Phase.ROUND_OVER):
            state = apply(state, rng.choice(legal_actions(state)))
        if state.phase is Phase.PLAYING:
            return state


def played_to(state: State, tricks_left: int, rng: random.Random) -> State:
    """The deal played at random (no Sawa) until ``tricks_left`` tricks remain."""
    while 8 - len(state.tricks) > tricks_left or state.trick:
        plays = [a for a in legal_actions(state) if "play" in a]
        state = apply(state, rng.choice(plays))
        if state.phase is not Phase.PLAYING:
            raise RuntimeError("the deal ended early")
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tricks-left", type=int, default=8)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    walls: list[float] = []
    cpus: list[float] = []
    kinds: dict[str, int] = {}
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    for _ in range(args.deals):
        state = deal_in_play(rng)
        if args.tricks_left < 8:
            state = played_to(state, args.tricks_left, rng)
        contract = state.contract.kind if state.contract else ""
        kind = ("locked " if state.lock else "") + contract
        kinds[kind] = kinds.get(kind, 0) + 1
        position = solver.position_of(state)
        wall, cpu = time.perf_counter(), time.process_time()
        solver.value(position)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(f"positions: {args.deals} with {args.tricks_left} tricks left, contracts {kinds}")
    for name, times in (("wall", walls), ("cpu", cpus)):
        print(
            f"{name}: min {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f}"
            f" ms, max {max(times) * 1000:.0f} ms"
        )
    print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")


if __name__ == "__main__":
    main()
