"""Rules engine benchmark (issues 2 and 13): prints its figures, asserts nothing.

- complete random matches per second and deals per second: uniformly random
  legal actions, with legal-action generation (and so the Sawa check at every
  lead) at every step; once through the engine's compact path
  (``legal_moves``/``apply_move``, as bots and searches use it) and once
  through the notation API (``legal_actions``/``apply``, as the site does);
- the share of that time spent in the Sawa check;
- the time to rebuild a state from a 700-action match (replay of the notation).

Run: ``python bench/rules_bench.py [--seconds N]``.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from games.rules import (
    Document,
    Phase,
    RoundRecord,
    apply,
    apply_move,
    legal_actions,
    legal_moves,
    new_match,
    playing,
    random_deck,
    replay_document,
    start_deal,
)

SAWA_TIME = [0.0, 0]


def timed_can_claim(real: Callable[..., bool]) -> Callable[..., bool]:
    def wrapper(*args: Any) -> bool:
        start = time.perf_counter()
        try:
            return real(*args)
        finally:
            SAWA_TIME[0] += time.perf_counter() - start
            SAWA_TIME[1] += 1

    return wrapper


def random_match(
    rng: random.Random, record: Document | None = None, patient: bool = False
) -> tuple[int, int]:
    """Plays one match with uniformly random legal actions through the
    notation API; (deals, actions).

    A ``patient`` match never calls a multiplier and bids only Hokum, so it
    runs to many deals, as long matches between careful players do.
    """
    state = new_match("classic", rng.randint(1, 4))
    deals = actions = 0
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.DEALING or state.phase is Phase.ROUND_OVER:
            deck = random_deck(rng)
            if record is not None:
                record.rounds.append(RoundRecord(state.next_dealer, deck))
            state = start_deal(state, deck)
            deals += 1
            continue
        legal = legal_actions(state)
        if patient:
            legal = [
                a
                for a in legal
                if a.get("double", "pass") == "pass" and a.get("bid") not in ("sun", "ashkal")
            ] or legal
        action = rng.choice(legal)
        state = apply(state, action)
        if record is not None:
            record.rounds[-1].actions.append(action)
        actions += 1
    return deals, actions


def random_match_compact(rng: random.Random) -> tuple[int, int]:
    """``random_match`` through the compact path: the same uniform choice
    among the legal actions, with no notation dict but the logged one."""
    state = new_match("classic", rng.randint(1, 4))
    deals = actions = 0
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.DEALING or state.phase is Phase.ROUND_OVER:
            state = start_deal(state, random_deck(rng))
            deals += 1
            continue
        state = apply_move(state, rng.choice(legal_moves(state)))
        actions += 1
    return deals, actions


def bench_matches(seconds: float, play: Callable[[random.Random], tuple[int, int]]) -> None:
    rng = random.Random(2026)
    matches = deals = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        d, a = play(rng)
        matches += 1
        deals += d
        actions += a
    elapsed = time.perf_counter() - start
    print(
        f"  random complete matches: {matches / elapsed:,.0f} per second "
        f"({matches} matches, {deals} deals, {actions} actions in {elapsed:.1f} s)"
    )
    print(
        f"  deals: {deals / elapsed:,.0f} per second; actions: {actions / elapsed:,.0f} per second"
    )


def bench_sawa_share(seconds: float) -> None:
    real = getattr(playing, "can_claim")  # noqa: B009 - patched for timing
    setattr(playing, "can_claim", timed_can_claim(real))  # noqa: B010
    try:
        rng = random.Random(7)
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            random_match(rng)
        elapsed = time.perf_counter() - start
    finally:
        setattr(playing, "can_claim", real)  # noqa: B010
    print(
        f"share of time in the Sawa check: {100 * SAWA_TIME[0] / elapsed:.1f}% "
        f"({SAWA_TIME[1]} checks, {1e6 * SAWA_TIME[0] / max(SAWA_TIME[1], 1):.1f} us each)"
    )


def long_match(min_actions: int) -> Document:
    """A random match of at least ``min_actions`` actions, cut to exactly that many."""
    rng = random.Random(1)
    while True:
        doc = Document(mode="classic")
        _, actions = random_match(rng, doc, patient=True)
        if actions >= min_actions:
            break
    left = min_actions
    rounds = []
    for record in doc.rounds:
        kept = record.actions[:left]
        rounds.append(RoundRecord(record.dealer, record.deck, kept))
        left -= len(kept)
        if left == 0:
            break
    return Document(mode="classic", rounds=rounds)


def bench_replay(repeats: int) -> None:
    doc = long_match(700)
    count = sum(len(r.actions) for r in doc.rounds)
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        replay_document(doc, allow_unfinished=True)
        timings.append(time.perf_counter() - start)
    print(
        f"replay of a {count}-action match ({len(doc.rounds)} deals): "
        f"median {1000 * statistics.median(timings):.2f} ms, best {1000 * min(timings):.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    print("compact path (legal_moves, apply_move):")
    bench_matches(args.seconds, random_match_compact)
    print("notation API (legal_actions, apply):")
    bench_matches(args.seconds, random_match)
    bench_sawa_share(args.seconds / 2)
    bench_replay(200)


if __name__ == "__main__":
    main()
