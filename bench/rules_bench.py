"""Rules engine benchmark (issues 2 and 13): prints its figures, asserts nothing.

- complete random matches per second and deals per second: uniformly random
  legal actions, with legal-action generation (and so the Sawa check at every
  lead) at every step; once through the engine's compact path
  (``legal_moves``/``apply_move``, as bots and searches use it; only for an
  engine that has it) and once through the notation API
  (``legal_actions``/``apply``, as the site does);
- the share of that time spent in the Sawa check;
- the time to rebuild a state from a 700-action match (replay of the notation);
- the copy cost: the time to make, from a state, the next state the engine
  writes an action into and hands out, without the action itself (an
  immutable engine's ``Draft.of(state).freeze()``, an older one's
  ``state.copy()``), per state, over the states of random matches.

Times are the benchmark process's own CPU time (``time.process_time``), so
other work on a shared machine lowers the figures far less than it would
wall-clock ones (caches and clock speed still feel it). Each run measures
this tree's engine and a reference engine (by default the
one before the issue 13 speed work, unpacked with ``git archive``) in fresh
interpreters, taking turns, so the two are compared on the same machine
load; the report gives min/median/max over the runs and checks, through the
notation API both engines have, that they played the very same games.

Run: ``python bench/rules_bench.py [--seconds N] [--runs N] [--reference REV|none]``.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import io
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The engine as it was before the issue 13 speed work: the parent of its
# first commit (f9223ea, which brought the compact path), so no compact figures.
REFERENCE = "96240bc"
# A child run imports the engine under the root it is given, and only that one.
sys.path.insert(0, sys.argv[sys.argv.index("--child") + 1] if "--child" in sys.argv else str(ROOT))

from games.rules import (  # noqa: E402
    Document,
    Phase,
    RoundRecord,
    apply,
    legal_actions,
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
    among the legal actions, with no notation dict but the logged one.

    Raises ImportError for an engine without the compact path.
    """
    # Imported here: the reference engine may predate the compact path.
    from games.rules import apply_move, legal_moves

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


def bench_matches(
    seconds: float, play: Callable[[random.Random], tuple[int, int]]
) -> dict[str, float]:
    """Plays matches for ``seconds``; matches, deals and actions per second."""
    rng = random.Random(2026)
    matches = deals = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        d, a = play(rng)
        matches += 1
        deals += d
        actions += a
    elapsed = time.process_time() - start
    return {
        "matches": matches / elapsed,
        "deals": deals / elapsed,
        "actions": actions / elapsed,
    }


def bench_sawa_share(seconds: float) -> float:
    """The percentage of a notation-API run spent in the Sawa check (a share
    of one process's time, so measured on the wall clock: reading the CPU
    clock around every check would cost more than many checks)."""
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
    return 100 * SAWA_TIME[0] / elapsed


def fingerprint(matches: int) -> str:
    """A digest of every action of ``matches`` seeded random matches, so two
    engines can be shown to play the very same games."""
    rng = random.Random(13)
    digest = hashlib.sha256()
    for _ in range(matches):
        doc = Document(mode="classic")
        random_match(rng, doc)
        state = replay_document(doc)
        digest.update(repr((state.score_a, state.score_b, state.winner)).encode())
        for record in doc.rounds:
            digest.update(repr(record.actions).encode())
    return digest.hexdigest()[:16]


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


def bench_replay(repeats: int) -> tuple[float, float]:
    """The median and best time, in ms, to replay a 700-action match."""
    doc = long_match(700)
    # Start from a collected heap, as a fresh process would: the garbage the
    # match benchmarks left behind would otherwise be collected inside the
    # timed replays and charged to them.
    gc.collect()
    timings = []
    for _ in range(repeats):
        start = time.process_time()
        replay_document(doc, allow_unfinished=True)
        timings.append(time.process_time() - start)
    return 1000 * statistics.median(timings), 1000 * min(timings)


def bench_copy(repeats: int) -> float:
    """The median time, in ns, of making the next state from a state, over
    the states of seeded random matches (``repeats`` timings of each)."""
    from games.rules import state as state_module

    draft = getattr(state_module, "Draft", None)
    rng = random.Random(3)
    samples = []
    for _ in range(5):
        state = new_match("classic", rng.randint(1, 4))
        while state.phase is not Phase.MATCH_OVER:
            if state.phase is Phase.DEALING or state.phase is Phase.ROUND_OVER:
                state = start_deal(state, random_deck(rng))
                continue
            samples.append(state)
            state = apply(state, rng.choice(legal_actions(state)))
    if draft is None:
        # An engine from before immutable states: a copy to write into.
        def build() -> None:
            for sample in samples:
                sample.copy()  # type: ignore[attr-defined]  # the older engine's
    else:
        of = draft.of

        def build() -> None:
            for sample in samples:
                of(sample).freeze()

    gc.collect()
    timings = []
    for _ in range(repeats):
        start = time.process_time()
        build()
        timings.append(time.process_time() - start)
    return 1e9 * statistics.median(timings) / len(samples)


def measure(seconds: float) -> dict[str, Any]:
    """Every figure of one run of the engine this interpreter imported; the
    compact ones only for an engine that has the compact path."""
    figures: dict[str, Any] = {}
    try:
        compact = bench_matches(seconds, random_match_compact)
    except ImportError:
        pass
    else:
        figures["compact deals/s"] = compact["deals"]
        figures["compact matches/s"] = compact["matches"]
        figures["compact actions/s"] = compact["actions"]
    api = bench_matches(seconds, random_match)
    sawa = bench_sawa_share(seconds / 2)
    median, best = bench_replay(200)
    copy_ns = bench_copy(50)
    return figures | {
        "API deals/s": api["deals"],
        "API matches/s": api["matches"],
        "Sawa check share %": sawa,
        "replay median ms": median,
        "replay best ms": best,
        "copy ns": copy_ns,
        "fingerprint": fingerprint(20),
    }


def extract(revision: str, into: pathlib.Path) -> pathlib.Path:
    """The rules engine of ``revision`` unpacked under ``into``; raises
    CalledProcessError when git cannot produce it."""
    tar = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "games/rules"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
    # Only the engine is archived: an empty package marker makes it importable alone.
    (into / "games" / "__init__.py").touch()
    return into


def run_child(root: pathlib.Path, seconds: float) -> dict[str, Any]:
    """``measure`` in a fresh interpreter importing the engine under ``root``."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(root), "--seconds", str(seconds)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    figures: dict[str, Any] = json.loads(out.splitlines()[-1])
    return figures


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def report(engines: dict[str, list[dict[str, Any]]]) -> None:
    names = list(engines)
    keys: list[str] = []
    for name in reversed(names):
        keys += [k for k in engines[name][0] if k != "fingerprint" and k not in keys]
    print(f"{'figure':<22}" + "".join(f"{name + ' min/median/max':>36}" for name in names))
    for key in keys:
        row = f"{key:<22}"
        for name in names:
            if key not in engines[name][0]:
                row += f"{'-':>36}"
                continue
            values = [run[key] for run in engines[name]]
            digits = 2 if key.endswith("ms") or key.endswith("%") else 0
            low, mid, high = min(values), statistics.median(values), max(values)
            row += f"{f'{low:,.{digits}f} / {mid:,.{digits}f} / {high:,.{digits}f}':>36}"
        print(row)
    if len(names) == 2:
        old, new = (engines[n] for n in names)
        # Deals per second by the fastest path each engine has: an engine
        # without the compact path is the notation API's figure.
        fast = next(key for key in ("compact deals/s", "API deals/s") if key in old[0])
        ratios = [n["compact deals/s"] / o[fast] for o, n in zip(old, new, strict=True)]
        print(
            f"compact deals/s of {names[1]} / {fast} of {names[0]} in the same run: "
            + ", ".join(f"{r:.2f}x" for r in ratios)
        )
        ratios = [n["API deals/s"] / o["API deals/s"] for o, n in zip(old, new, strict=True)]
        print(
            f"API deals/s, {names[1]} / {names[0]} in the same run: "
            + ", ".join(f"{r:.2f}x" for r in ratios)
        )
        same = {run["fingerprint"] for runs in engines.values() for run in runs}
        print("same games played by both engines:", "yes" if len(same) == 1 else f"NO {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure and run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--reference",
        default=REFERENCE,
        help="git revision of the engine to compare with; 'none' to skip",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.seconds)))
        return
    engines: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        roots = {}
        if args.reference != "none":
            roots[f"ref {args.reference}"] = extract(args.reference, pathlib.Path(tmp))
        roots["this tree"] = ROOT
        print(f"load before: {load()}")
        for run in range(args.runs):
            # The engines take turns within each run, so both see the same
            # machine load.
            for name, root in roots.items():
                engines.setdefault(name, []).append(run_child(root, args.seconds))
            print(f"run {run + 1}/{args.runs} done, load {load()}", flush=True)
    report(engines)
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
