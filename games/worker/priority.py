"""A worker's thread run below the server processes, for good.

A process cannot raise its priority back without privileges. Both lowerings
apply to the calling thread and to the threads and processes it starts
afterwards; a thread started before keeps its priority.

Linux's idle scheduling policy gives a thread a processor only while no
other process wants one, and a server process that wakes takes it back at
once. A niceness alone gives way only at the end of the lower thread's time
slice, and a server process wakes for every push, so the pushes' p99 is
lower under the idle policy than at any niceness (measured in
docs/performance.md, "The idle scheduling policy", ``bench/live_bench.py
--stack production``). When the servers
leave no processor free at all, what runs under the idle policy waits for
them.

Imports nothing of Django's: the deal analysis's process uses it too.
"""

from __future__ import annotations

import contextlib
import os


def lower_this_thread(niceness: int, *, idle: bool) -> None:
    """Lower the calling thread by ``niceness`` (0 to 19) and, with ``idle``, put it
    under the idle scheduling policy where the system has one."""
    if niceness:
        with contextlib.suppress(AttributeError, OSError):
            os.nice(niceness)
    if idle:
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
