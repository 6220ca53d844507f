"""Bot strength benchmark (issue 13): duplicate matches between bot levels.

Each duplicate pair plays one sequence of decks twice, with the same first
dealer: first with level X at seats 1 and 3 and level Y at seats 2 and 4,
then with the levels' seats rotated by one (X at 2 and 4), so that every
hand X held in the first match goes to Y in the second, and the other way
round. Luck in the cards cancels; what is left is play. (Moving the dealer
on by one as well would hand every seat its neighbour's cards and give X
its own hands back.)

For each pair of levels it prints: the share of matches X won with its 95%
confidence interval (Wilson), X's game points minus Y's per deal with its 95%
interval (over the duplicate pairs' means), the contracts each level bought
and made, how often the strong bot's Monte Carlo check changed its
heuristics' bid, call or declaration, and for each level the decision
time at the 50th and 99th percentile (every bot decision, measured around
``choose_action``), with the machine's load average. It asserts nothing.

Run: ``python bench/bot_bench.py [--pairs strong:easy,strong:normal,normal:easy]
[--matches N] [--mode quick|classic] [--max-deals D] [--budget-ms 300] [--seed S]``.
``--matches`` counts duplicate pairs (each two matches). ``--max-deals`` ends a
match after D deals (the team ahead wins; a tie counts half): with quick
matches (52 to 152) it keeps a run to minutes on a shared machine.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from games import rules
from games.bots import choose_action
from games.bots.policy import heuristic

Z95 = 1.96
AUCTION = ("bidding", "doubling", "declaring")


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return centre - half, centre + half


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play_match(
    decks: list[list[str]],
    levels: dict[int, str],
    dealer: int,
    mode: str,
    max_deals: int,
    budget_ms: float,
    times: dict[str, list[float]],
    contracts: dict[str, list[tuple[int, int]]] | None = None,
    checks: dict[str, list[int]] | None = None,
) -> tuple[dict[str, int], int]:
    """One match over ``decks`` (deal i uses deck i): the final score and the deals played.

    ``contracts`` collects, by the level that bought each contract, the game
    points (its team, the other team) the deal brought; ``checks`` counts, by
    phase, the strong bot's bids, calls and declarations and how many of them
    its Monte Carlo check made differ from its heuristics' choice.
    """
    state = rules.new_match(mode, dealer=dealer)
    deals = 0
    scored = 0
    while state.phase is not rules.Phase.MATCH_OVER:
        if contracts is not None:
            scored = _count_contracts(state, levels, scored, contracts)
        if state.phase in (rules.Phase.DEALING, rules.Phase.ROUND_OVER):
            if deals == max_deals:
                break
            state = rules.start_deal(state, decks[deals % len(decks)])
            deals += 1
            continue
        seat = state.turn
        assert seat is not None
        level = levels[seat]
        start = time.perf_counter()
        action = choose_action(state, seat, level=level, budget_ms=budget_ms)
        times[level].append(time.perf_counter() - start)
        if checks is not None and level == "strong" and state.phase.value in AUCTION:
            proposed = heuristic(rules.view_for(state, seat), level)
            counted = checks.setdefault(state.phase.value, [0, 0])
            counted[0] += 1
            counted[1] += action != proposed
        state = rules.apply(state, action)
    if contracts is not None:
        _count_contracts(state, levels, scored, contracts)
    return state.score, deals


def _count_contracts(
    state: rules.State,
    levels: dict[int, str],
    scored: int,
    contracts: dict[str, list[tuple[int, int]]],
) -> int:
    """Adds the deals scored since the first ``scored`` to ``contracts``; the new count."""
    for result in state.results[scored:]:
        if result.contract:
            bidder = int(result.contract["bidder"])
            team = (bidder - 1) % 2
            contracts[levels[bidder]].append((result.points[team], result.points[1 - team]))
    return len(state.results)


def duel(
    x: str, y: str, args: argparse.Namespace, rng: random.Random, times: dict[str, list[float]]
) -> None:
    """Duplicate matches of level ``x`` against level ``y``; prints the figures."""
    results: list[float] = []  # 1 for an x win, 0.5 for a tie, 0 for a loss
    per_pair: list[float] = []  # x's points minus y's, per deal, for each duplicate pair
    owned: dict[str, list[tuple[int, int]]] = {x: [], y: []}
    checks: dict[str, list[int]] = {}
    for _ in range(args.matches):
        decks = [rules.random_deck(rng) for _ in range(args.max_deals or 60)]
        dealer = rng.randint(1, 4)
        diffs = 0
        deals_total = 0
        for rotation in (0, 1):
            # Rotation 1 moves the levels on by one seat, the deal staying the
            # same: X's hands of rotation 0 go to Y.
            x_seats = (1, 3) if rotation == 0 else (2, 4)
            levels = {s: x if s in x_seats else y for s in (1, 2, 3, 4)}
            score, deals = play_match(
                decks,
                levels,
                dealer,
                args.mode,
                args.max_deals or 10_000,
                args.budget_ms,
                times,
                owned,
                checks,
            )
            x_team = "A" if rotation == 0 else "B"
            y_team = "B" if rotation == 0 else "A"
            margin = score[x_team] - score[y_team]
            results.append(1.0 if margin > 0 else 0.5 if margin == 0 else 0.0)
            diffs += margin
            deals_total += deals
        per_pair.append(diffs / max(deals_total, 1))
    won = sum(results)
    low, high = wilson(won, len(results))
    mean, mlow, mhigh = mean_interval(per_pair)
    print(
        f"{x} vs {y}: {x} won {won:g} of {len(results)} matches = {won / len(results):.1%}"
        f" (95% CI {low:.1%}-{high:.1%}); {x} minus {y} per deal {mean:+.2f}"
        f" game points (95% CI {mlow:+.2f} to {mhigh:+.2f})",
        flush=True,
    )
    for level in dict.fromkeys((x, y)):
        deals_owned = owned[level]
        if not deals_owned:
            continue
        made = sum(1 for own, other in deals_owned if own > other)
        own_mean = statistics.fmean(own for own, _ in deals_owned)
        other_mean = statistics.fmean(other for _, other in deals_owned)
        print(
            f"  contracts bought by {level} (in {x} vs {y}): {len(deals_owned)},"
            f" made {made / len(deals_owned):.0%}; game points per contract:"
            f" buyers {own_mean:.1f}, defenders {other_mean:.1f}",
            flush=True,
        )
    for phase in AUCTION:
        if phase in checks:
            total, changed = checks[phase]
            print(
                f"  strong's {phase} decisions (in {x} vs {y}): {total}, changed by its"
                f" Monte Carlo check {changed} ({changed / total:.1%})",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", default="strong:easy,strong:normal,normal:easy")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--mode", choices=("quick", "classic"), default="quick")
    parser.add_argument("--max-deals", type=int, default=0)
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {"easy": [], "normal": [], "strong": []}
    started = time.perf_counter()
    for pair in args.pairs.split(","):
        x, y = pair.split(":")
        duel(x, y, args, rng, times)
    for level, spent in times.items():
        if spent:
            print(
                f"{level}: {len(spent)} decisions, p50 {percentile(spent, 0.5) * 1000:.1f} ms,"
                f" p99 {percentile(spent, 0.99) * 1000:.1f} ms,"
                f" max {max(spent) * 1000:.1f} ms"
            )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"wall time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
