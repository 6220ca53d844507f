"""The worker as its own process: it resumes after a restart, finishes bot matches,
shares the work with other workers, and stops cleanly on SIGTERM."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.support.processes import CARD, Site, sqlite_rows, start_bot_matches, stop, wait_until


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database file with every migration applied, made once per module."""
    path = tmp_path_factory.mktemp("migrated") / "db.sqlite3"
    Site(f"sqlite:///{path}").manage("migrate", "--noinput")
    return path


@pytest.fixture
def database(migrated: Path, tmp_path: Path) -> Path:
    """A fresh copy of the migrated database for one test."""
    path = tmp_path / "db.sqlite3"
    shutil.copy(migrated, path)
    return path


def statuses(path: Path, ids: list[int]) -> set[str]:
    marks = ",".join("?" * len(ids))
    query = f"SELECT status FROM games_match WHERE id IN ({marks})"
    return {status for (status,) in sqlite_rows(path, query, *ids)}


def test_a_turn_that_fell_due_while_nothing_ran_is_played_by_a_new_process(database: Path):
    site = Site(f"sqlite:///{database}")
    # One process starts a table of four people, then the site goes down; the
    # first player's time runs out meanwhile.
    out = site.shell(
        "from datetime import timedelta\n"
        "from django.contrib.auth.models import User\n"
        "from django.utils import timezone\n"
        "from games.match import services\n"
        "from games.match.models import Match\n"
        "people = [User.objects.create_user(name) for name in 'abcd']\n"
        "match = services.create_match(people[0])\n"
        "for number in (2, 3, 4):\n"
        "    services.take_seat(people[number - 1], match, number)\n"
        "outcome = services.start_match(people[0], match)\n"
        "Match.objects.filter(pk=match.pk).update(\n"
        "    deadline=timezone.now() - timedelta(minutes=5))\n"
        "print(match.pk, outcome.state.turn)\n"
    )
    match_id, late_seat = (int(word) for word in out.split())
    # A new process, with nothing but the database to go on, plays it once.
    assert site.manage("run_worker", "--once").strip() == "1 due turns played."
    assert site.manage("run_worker", "--once").strip() == "0 due turns played."
    events = sqlite_rows(
        database,
        "SELECT seq, kind, actor_seat, auto FROM games_event WHERE match_id = ? ORDER BY seq",
        match_id,
    )
    assert events == [(1, "deal", None, 0), (2, "action", late_seat, 1)]
    missed = sqlite_rows(
        database,
        "SELECT missed_turns FROM games_seat WHERE match_id = ? AND number = ?",
        match_id,
        late_seat,
    )
    assert missed == [(1,)]
    assert "All 1 matches replay consistently." in site.manage("verify_matches")


def test_the_worker_finishes_bot_matches_logs_no_card_and_stops_on_sigterm(
    database: Path, tmp_path: Path
):
    site = Site(f"sqlite:///{database}")
    ids = start_bot_matches(site, 1)
    worker = site.start_worker(tmp_path / "worker.log")
    try:
        wait_until(lambda: statuses(database, ids) == {"finished"}, 300, "the match to end")
    finally:
        status, log = stop(worker, tmp_path / "worker.log")
    assert status == 0, log
    assert "worker: SIGTERM received, stopping" in log
    assert log.rstrip().endswith("worker: stopped")
    assert "bot in seat" in log
    assert not re.findall(CARD, log), "the worker's log shows a card"
    assert "Traceback" not in log
    assert "All 1 matches replay consistently." in site.manage("verify_matches")


def test_two_workers_share_the_tables_and_record_every_turn_once(database: Path, tmp_path: Path):
    site = Site(f"sqlite:///{database}")
    ids = start_bot_matches(site, 2)
    files = [tmp_path / "first.log", tmp_path / "second.log"]
    workers = [site.start_worker(log) for log in files]
    try:
        wait_until(lambda: statuses(database, ids) == {"finished"}, 300, "all matches to end")
    finally:
        logs = [stop(worker, log) for worker, log in zip(workers, files, strict=True)]
    for status, log in logs:
        assert status == 0, log
        assert "Traceback" not in log
    assert "All 2 matches replay consistently." in site.manage("verify_matches")
    # Each recorded action is logged by exactly one of the two workers: a bot's
    # move, or the "no projects" recorded with it for a seat that has none.
    logged = [
        (int(m), int(s))
        for _status, log in logs
        for m, s in re.findall(r"match (\d+) event (\d+): (?:bot|no projects)", log)
    ]
    recorded = sqlite_rows(database, "SELECT match_id, seq FROM games_event WHERE kind = 'action'")
    assert sorted(logged) == sorted(recorded)


def threads_of(pid: int) -> list[int]:
    """The ids of process ``pid``'s threads but its main one (Linux: /proc/PID/task)."""
    return [int(task.name) for task in Path(f"/proc/{pid}/task").iterdir() if task.name != str(pid)]


def niceness_of(pid: int) -> int:
    """The scheduling niceness of process ``pid`` (Linux: field 19 of /proc/PID/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    ("setting", "idle", "expected", "policy"),
    [
        (None, None, 10, os.SCHED_IDLE),
        ("3", None, 3, os.SCHED_IDLE),
        ("0", "false", 0, os.SCHED_OTHER),
        (None, "false", 10, os.SCHED_OTHER),
    ],
)
def test_the_worker_runs_below_the_servers(
    database: Path,
    tmp_path: Path,
    setting: str | None,
    idle: str | None,
    expected: int,
    policy: int,
):
    """When CPU runs short, pushes to people go before bots' turns (WORKER_NICENESS,
    WORKER_IDLE); the thread that sends the announcements keeps the servers' priority."""
    site = Site(f"sqlite:///{database}")
    site.env.pop("WORKER_NICENESS", None)
    site.env.pop("WORKER_IDLE", None)
    if setting is not None:
        site.env["WORKER_NICENESS"] = setting
    if idle is not None:
        site.env["WORKER_IDLE"] = idle
    log = tmp_path / "worker.log"
    own = niceness_of(os.getpid())
    own_policy = os.sched_getscheduler(0)
    worker = site.start_worker(log)
    try:
        wait_until(lambda: "worker: started" in log.read_text(), 60, "the worker to start")
        assert niceness_of(worker.pid) == min(19, own + expected)
        assert os.sched_getscheduler(worker.pid) == policy
        # Started before the worker lowered itself: the thread that sends the announcements.
        others = [(niceness_of(t), os.sched_getscheduler(t)) for t in threads_of(worker.pid)]
        assert (own, own_policy) in others
    finally:
        code, output = stop(worker, log)
    assert code == 0, output
