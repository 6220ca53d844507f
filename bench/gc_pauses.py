"""Run a Python program, recording how long each of its cycle collections stopped it.

Usage: ``python bench/gc_pauses.py OUT.json [--defaults] PROGRAM [ARGS...]``,
where PROGRAM is a script path (``manage.py``) or ``-m MODULE`` (``-m
baloot_site.serve``, the site's daphne). A collection holds the interpreter
for as long as it runs: every thread, the event loop answering the sockets
included, waits for it. ``gc.callbacks`` note when each starts and stops.

``--defaults`` leaves the collector as Python sets it: the site's tuning
(``baloot_site.collector.tune_for_server``, which the server and the worker
call once started) does nothing, for the figures before it.

As with ``bench/profiled.py``, SIGUSR1 forgets what was noted so far and
SIGUSR2 writes what was noted since to OUT.json (``{"seconds": the window,
"pauses": [[generation, seconds], ...]}``), once; the program must end by
itself. ``live_bench.py --gc-pauses DIR`` starts every server process this
way and prints what they wrote.
"""

from __future__ import annotations

import gc
import json
import runpy
import signal
import sys
import time
from pathlib import Path
from typing import Any

_pauses: list[tuple[int, float]] = []
_started: list[float] = []
_window: list[float] = [time.perf_counter()]
_written: list[Path] = []


def _note(phase: str, info: dict[str, Any]) -> None:
    """``gc.callbacks``: the time each collection started, and how long it took."""
    now = time.perf_counter()
    if phase == "start":
        _started[:] = [now]
    elif _started:
        _pauses.append((int(info["generation"]), now - _started.pop()))


def _forget(signum: int, frame: Any) -> None:
    _pauses.clear()
    _window[:] = [time.perf_counter()]


def _write(out: Path) -> None:
    """Write the pauses noted since the window opened to ``out``, once."""
    if _written:
        return
    _written.append(out)
    figures = {"seconds": time.perf_counter() - _window[0], "pauses": list(_pauses)}
    out.write_text(json.dumps(figures))


def main() -> None:
    out = Path(sys.argv[1])
    defaults = sys.argv[2] == "--defaults"
    rest = sys.argv[3:] if defaults else sys.argv[2:]
    # PROGRAM is a script's path, or ``-m MODULE`` as python takes it; either
    # way the program sees itself first in sys.argv, its arguments after.
    module = rest[1] if rest[0] == "-m" else None
    sys.argv = rest[1:] if module else rest
    program = sys.argv[0]
    sys.path.insert(0, str(Path.cwd() if module else Path(program).resolve().parent))
    if defaults:
        import baloot_site.collector

        # Those who call it import it after this: they find it doing nothing.
        baloot_site.collector.tune_for_server = lambda: None
    gc.callbacks.append(_note)
    signal.signal(signal.SIGUSR1, _forget)
    signal.signal(signal.SIGUSR2, lambda signum, frame: _write(out))
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(program, run_name="__main__")
    except SystemExit:
        pass
    finally:
        _write(out)


if __name__ == "__main__":
    main()
