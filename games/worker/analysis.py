"""The worker's background job: the double-dummy analysis of every finished deal.

After a deal ends, the worker analyses it once (``deal_analysis.analyse_deal``)
and stores the result as a ``DealAnalysis`` row, marked with the solver's
version (``games.rules.solver.SOLVER_VERSION``); a row of another version is
computed again. Only deals the log shows finished are ever analysed
(``games.match.finished_deals``): the analysis shows every hand.

Live play comes first, three times over. The worker starts an analysis only
after a pass that found no turn due (``Analyst.tick``), and the solving runs
in a separate process at the lowest scheduling priority, so neither the
worker's next due turn nor the server (the embedded ``WORKER_IN_SERVER``
mode) waits for it: the worker collects the answer on a later pass. And the
analysis is paused while the worker plays (``Analyst.make_way``), going on
only while the worker sleeps ``ROOM`` or longer (``Analyst.go_on_before``).
The separate worker runs under the idle scheduling policy too, and Linux
shares a processor equally between two such threads: unpaused, on a
machine the servers kept busy, each analysis process took more processor
time than its worker and the bots' turns came late (measured in
docs/performance.md, "The deal analysis paused while the worker plays",
``bench/live_bench.py --stack production --tables 200 --bot-delay 0.8
--stagger 40``).

A search for work that found none is not made again for ``LOOK_EVERY``
seconds. ``analyse_next`` does the same work in the calling process, for
tests and benchmarks.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError
from django.db.models import Case, Count, F, Q, When
from django.utils import timezone

from games.match.event_log import LogError, load_state
from games.match.finished_deals import OVER, FinishedDeal, finished_deal
from games.match.models import DealAnalysis, Match
from games.rules.solver import SOLVER_VERSION
from games.worker import deal_analysis

logger = logging.getLogger("games.worker")

# How many matches one search for work looks at, newest first.
CANDIDATES = 20
# Seconds between two searches for work that found none.
LOOK_EVERY = 2.0
# The shortest sleep of the worker's during which a paused analysis goes on
# (seconds): the gaps between due turns on busy tables are left to the turns.
ROOM = 0.02


@dataclass(frozen=True)
class Job:
    """One finished deal to analyse."""

    match_id: int
    number: int
    deal: FinishedDeal


def pending(skip: frozenset[tuple[int, int]] = frozenset()) -> list[tuple[int, int]]:
    """(match id, deal number) of finished deals without a current analysis.

    Newest match first, and its latest deal first: the deal a player has
    just finished is the one they look at. A running match's last deal is
    left out, finished or not: it is analysed once the next deal is dealt, so
    no analysis is ever written while its hands may still be in play. A
    stopped match's last deal is analysed only if it had ended.
    """
    read_stopped_logs()
    current = Count("analyses", filter=Q(analyses__solver_version=SOLVER_VERSION))
    finished = Case(
        When(status=Match.Status.FINISHED, then=F("deal_number")),
        When(status=Match.Status.ABORTED, last_deal_over=True, then=F("deal_number")),
        default=F("deal_number") - 1,
    )
    matches = (
        Match.objects.exclude(status=Match.Status.WAITING)
        .annotate(done=current, finished=finished)
        .filter(finished__gt=F("done"))
        .order_by("-pk")
        .values_list("pk", "finished")[:CANDIDATES]
    )
    found: list[tuple[int, int]] = []
    for match_id, count in matches:
        analysed = set(
            DealAnalysis.objects.filter(
                match_id=match_id, solver_version=SOLVER_VERSION
            ).values_list("number", flat=True)
        )
        found.extend(
            (match_id, number)
            for number in range(count, 0, -1)
            if number not in analysed and (match_id, number) not in skip
        )
    return found


def read_stopped_logs() -> None:
    """Note, for stopped matches not read yet, whether their last deal had ended.

    Matches stopped before the site recorded it when stopping them; a stopped
    match's log never grows again, so one reading is for good. A log that does
    not replay counts as a deal not over: there is nothing to analyse in it.
    """
    for match in Match.objects.filter(
        status=Match.Status.ABORTED, last_deal_over__isnull=True
    ).order_by("-pk")[:CANDIDATES]:
        try:
            over = match.deal_number > 0 and load_state(match).phase in OVER
        except LogError:
            logger.exception("match %s: the log does not replay", match.pk)
            over = False
        Match.objects.filter(pk=match.pk).update(last_deal_over=over)


def next_job(skip: set[tuple[int, int]]) -> Job | None:
    """The next deal to analyse, folded from the log; None when there is none.

    A deal that does not fold to its end (a broken log) is added to ``skip``
    and passed over.
    """
    for match_id, number in pending(frozenset(skip)):
        match = Match.objects.filter(pk=match_id).first()
        try:
            deal = finished_deal(match, number) if match is not None else None
        except LogError:
            logger.exception("match %s deal %s: the log does not replay", match_id, number)
            deal = None
        if deal is None:
            skip.add((match_id, number))
            continue
        return Job(match_id, number, deal)
    return None


def store(job: Job, plays: list[dict[str, Any]]) -> None:
    """Keep ``plays`` as the deal's analysis, replacing one of another solver version."""
    try:
        DealAnalysis.objects.update_or_create(
            match_id=job.match_id,
            number=job.number,
            defaults={"solver_version": SOLVER_VERSION, "plays": plays},
        )
    except IntegrityError:
        # The match was deleted meanwhile, or another worker stored it first.
        logger.info("match %s deal %s: analysis not stored", job.match_id, job.number)
        return
    logger.info("match %s deal %s analysed", job.match_id, job.number)


def analyse_next(skip: set[tuple[int, int]] | None = None) -> tuple[int, int] | None:
    """Analyse the next pending deal here and now; returns (match id, number) or None."""
    job = next_job(skip if skip is not None else set())
    if job is None:
        return None
    store(job, deal_analysis.analyse_deal(job.deal.states, job.deal.actions))
    return job.match_id, job.number


class Analyst:
    """The analysis process and the job it works on, driven by the worker's passes.

    ``tick`` is cheap: it collects a finished answer, and starts the next job
    only when the worker is idle. The process is started on first use and
    again if it died; ``close`` stops it.
    """

    def __init__(self) -> None:
        self._process: Any = None
        self._connection: Any = None
        self._continues_at_exit = False
        self._job: Job | None = None
        self._skip: set[tuple[int, int]] = set()
        # After a look that found nothing, the next is not before this
        # (monotonic seconds): a busy worker has an idle pass between most
        # bursts of turns, and the look is a query over every match.
        self._look_after = 0.0
        # True while the analysis process is stopped (make_way).
        self._paused = False

    @property
    def busy(self) -> bool:
        """True while a deal is being analysed."""
        return self._job is not None

    @property
    def process_id(self) -> int | None:
        """The analysis process's id, while it runs."""
        return self._process.pid if self._process is not None else None

    def tick(self, idle: bool) -> bool:
        """Store an analysis that is ready; if ``idle``, start the next one.

        Returns True when an analysis was stored. Database errors are raised
        to the worker's pass, which handles them.
        """
        if not settings.DEAL_ANALYSIS:
            return False
        stored = self._collect()
        if idle and self._job is None:
            self._start()
        return stored

    def make_way(self) -> None:
        """Pause the analysis under way (SIGSTOP) while the worker plays due turns."""
        if self._job is not None and not self._paused and _signal(self._process, _STOP):
            self._paused = True

    def go_on(self) -> None:
        """Let a paused analysis go on (SIGCONT)."""
        if self._paused:
            _signal(self._process, _CONTINUE)
            self._paused = False

    def go_on_before(self, until: datetime | None) -> None:
        """``go_on`` if the worker is about to sleep ``ROOM`` or longer (until ``until``;
        None: no deadline is known)."""
        if self._paused and (until is None or (until - timezone.now()).total_seconds() >= ROOM):
            self.go_on()

    def close(self) -> None:
        """Stop the analysis process; a job under way is dropped and done again later."""
        if self._connection is not None:
            self._connection.close()
        if self._process is not None:
            # SIGKILL ends a stopped process too.
            self._process.kill()
            self._process.join(timeout=5)
        self._process = self._connection = self._job = None
        self._paused = False

    def _collect(self) -> bool:
        job = self._job
        if job is None:
            return False
        if not self._process.is_alive() and not self._connection.poll():
            logger.warning(
                "match %s deal %s: the analysis process stopped; passed over",
                job.match_id,
                job.number,
            )
            self._skip.add((job.match_id, job.number))
            self.close()
            return False
        if not self._connection.poll():
            return False
        try:
            status, result = self._connection.recv()
        except (EOFError, OSError):
            self.close()
            return False
        self._job = None
        if status != "ok":
            logger.error("match %s deal %s: analysis failed: %s", job.match_id, job.number, result)
            self._skip.add((job.match_id, job.number))
            return False
        store(job, result)
        return True

    def _start(self) -> None:
        if time.monotonic() < self._look_after:
            return
        job = next_job(self._skip)
        if job is None:
            self._look_after = time.monotonic() + LOOK_EVERY
            return
        if self._process is None or not self._process.is_alive():
            self._spawn()
        # A stopped process reads nothing: a job larger than the pipe holds
        # would block the worker.
        self.go_on()
        try:
            self._connection.send((job.deal.states, job.deal.actions))
        except (BrokenPipeError, OSError):
            self.close()
            return
        self._job = job

    def _spawn(self) -> None:
        self.close()
        # "spawn": a fresh interpreter that imports only the engine, never a
        # copy of the server's threads and sockets.
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=deal_analysis.serve, args=(theirs,), name="deal-analysis", daemon=True
        )
        process.start()
        theirs.close()
        self._process, self._connection = process, ours
        if not self._continues_at_exit:
            # At exit multiprocessing sends its children SIGTERM and waits
            # for them. A child stopped early in its start-up was seen to
            # outlive that signal, and the exit then waited for ever: let it
            # go on first. Registered after start(), so that it runs before
            # multiprocessing's own exit function (atexit runs the last first).
            atexit.register(self.go_on)
            self._continues_at_exit = True


def analyse_safely(analyst: Analyst, idle: bool) -> None:
    """``analyst.tick`` for a worker's pass: a database error is logged, never raised."""
    try:
        analyst.tick(idle)
    except DatabaseError:
        logger.exception("worker: database error while analysing; retrying later")


_STOP = getattr(signal, "SIGSTOP", None)
_CONTINUE = getattr(signal, "SIGCONT", None)


def _signal(process: Any, number: int | None) -> bool:
    """Send ``number`` to ``process``; False where it cannot be (no such signal, no
    process, or it has ended)."""
    if number is None or process is None or process.pid is None:
        return False
    try:
        os.kill(process.pid, number)
    except (ProcessLookupError, PermissionError):
        return False
    return True
