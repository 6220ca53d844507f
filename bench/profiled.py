"""Run a Python program under cProfile in every thread; write the stats when it ends.

Usage: ``python bench/profiled.py OUT.prof PROGRAM [ARGS...]``, where
PROGRAM is a script path (``manage.py``) or ``-m MODULE`` (``-m
baloot_site.serve``, the site's daphne). A server
process does most of its work outside its main thread (Channels runs the
synchronous code, rendering and queries, in a thread pool), which plain
``python -m cProfile`` would not see: here each thread gets a profiler of
its own as it starts, and their figures are added up at the end. The
program must end by itself (daphne and ``run_worker`` do on SIGTERM).

Each profiler counts its thread's CPU time (``time.thread_time_ns``), not
the clock on the wall, so that threads waiting for work, for a lock or for
the network cost nothing in the figures and a busy machine skews them less.

``live_bench.py --profile DIR`` starts every server process this way, and
sends each SIGUSR1 as its measured window opens and SIGUSR2 as it closes:
the profiles cover the window alone, not starting, connecting every client
or stopping. Read
the result with ``python -m pstats OUT.prof`` or ``bench/profile_report.py``.
"""

from __future__ import annotations

import cProfile
import pstats
import runpy
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

_profilers: list[cProfile.Profile] = []
_lock = threading.Lock()


def _profiler() -> cProfile.Profile:
    """A profiler of the calling thread's CPU time."""
    return cProfile.Profile(time.thread_time_ns, 1e-9)


def _profile_this_thread(frame: Any, event: str, arg: Any) -> None:
    """The first profiling event of a new thread: give the thread a profiler of its own."""
    profiler = _profiler()
    with _lock:
        _profilers.append(profiler)
    # Replaces this function as the thread's profile hook.
    profiler.enable()


def _forget(signum: int, frame: Any) -> None:
    with _lock:
        for profiler in _profilers:
            profiler.clear()


_written: list[Path] = []


def _write(out: Path) -> None:
    """Write what every thread's profiler counted so far to ``out``, once."""
    if _written:
        return
    _written.append(out)
    stats: pstats.Stats | None = None
    with _lock:
        for profiler in _profilers:
            try:
                found = pstats.Stats(profiler)
            except TypeError:  # a thread's profiler that never saw a call
                continue
            if stats is None:
                stats = found
            else:
                stats.add(found)
    if stats is not None:
        stats.dump_stats(out)


def main() -> None:
    out = Path(sys.argv[1])
    # PROGRAM is a script's path, or ``-m MODULE`` as python takes it; either
    # way the program sees itself first in sys.argv, its arguments after.
    module = sys.argv[3] if sys.argv[2] == "-m" else None
    sys.argv = sys.argv[3:] if module else sys.argv[2:]
    program = sys.argv[0]
    sys.path.insert(0, str(Path.cwd() if module else Path(program).resolve().parent))
    threading.setprofile(_profile_this_thread)
    # SIGUSR1 forgets what was counted so far and SIGUSR2 writes what was
    # counted since: the benchmark sends them as its measured window opens
    # and closes, so that starting up, connecting and stopping are left out.
    signal.signal(signal.SIGUSR1, _forget)
    signal.signal(signal.SIGUSR2, lambda signum, frame: _write(out))
    main_profiler = _profiler()
    _profilers.append(main_profiler)
    main_profiler.enable()
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(program, run_name="__main__")
    except SystemExit:
        pass
    finally:
        main_profiler.disable()
        threading.setprofile(None)  # type: ignore[arg-type]
        _write(out)


if __name__ == "__main__":
    main()
