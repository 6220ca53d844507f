"""Running the site's own commands as separate processes against one database.

Each call is a fresh interpreter, as after a restart: nothing survives
between them but what the database holds.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[2]
# A played card looks like this in a log line; the worker must never print one.
CARD = r"\b[789TJQKA][SHDC]\b"


class Site:
    """The project's ``manage.py`` commands against the database at ``database_url``."""

    def __init__(self, database_url: str, **env: str) -> None:
        self.database_url = database_url
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "BOT_DELAY_SECONDS": "0",
            "WORKER_INTERVAL": "0.05",
            **env,
        }
        self.env.pop("REDIS_URL", None)

    def manage(self, *args: str, timeout: float = 120) -> str:
        """Run one command to its end; returns its output, fails the test on an error."""
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def shell(self, code: str) -> str:
        """Run Python ``code`` in a fresh Django process; returns what it printed."""
        return self.manage("shell", "--no-imports", "-c", code)

    def start_worker(self, log: Path) -> subprocess.Popen[str]:
        """Start ``run_worker`` in the background, its output going to the file ``log``.

        A file, not a pipe: a pipe nobody reads fills up and stops the worker.
        """
        with log.open("w") as out:
            return subprocess.Popen(
                [sys.executable, "manage.py", "run_worker"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
            )


def stop(process: subprocess.Popen[str], log: Path, timeout: float = 30) -> tuple[int, str]:
    """SIGTERM a background process and wait; returns its exit status and its log."""
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=timeout)
    return process.returncode, log.read_text()


class Shell(Protocol):
    """Anything that runs Python code in a fresh Django process of the site."""

    def shell(self, code: str) -> str: ...


def start_bot_matches(site: Shell, count: int) -> list[int]:
    """Start ``count`` four-bot tables; returns their ids."""
    out = site.shell(
        "from django.contrib.auth.models import User\n"
        "from games.match import services\n"
        "owner = User.objects.create_user('owner')\n"
        "ids = []\n"
        f"for _ in range({count}):\n"
        "    match = services.create_match(owner, seat=None)\n"
        "    for number in (1, 2, 3, 4):\n"
        "        services.add_bot(owner, match, number)\n"
        "    ids.append(services.start_match(owner, match).match.pk)\n"
        "print(*ids)\n"
    )
    return [int(word) for word in out.split()]


def in_fresh_interpreter(
    program: str, env: dict[str, str], *, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run the Python ``program`` in a new interpreter at the project's root, with the
    environment ``env``; with ``check``, a failure fails the test."""
    return subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=check,
    )


def wait_until(condition: Any, timeout: float, what: str) -> None:
    """Poll ``condition()`` until it is true; fails the test after ``timeout`` seconds."""
    waited = 0.0
    while not condition():
        assert waited < timeout, f"gave up waiting for {what}"
        time.sleep(0.1)
        waited += 0.1


def sqlite_rows(path: Path, query: str, *params: Any) -> list[tuple[Any, ...]]:
    """Read the SQLite database file directly, as a third process would."""
    with sqlite3.connect(path, timeout=20) as db:
        return db.execute(query, params).fetchall()
