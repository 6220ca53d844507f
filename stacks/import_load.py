"""Uploading a notation document to a running site while other players act at their tables.

Used by ``tests/realworld/test_import_under_load.py`` and ``bench/import_bench.py``:
people in seat 1 of bot tables play as fast as the page lets them (read the
table, post the first action its buttons offer), while one more player
uploads a document and follows its import page until the match is there.
Every request is timed; nothing here judges the figures.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from stacks.clients import HttpSession, Response, action_buttons
from stacks.servers import Stack
from stacks.tables import PASSWORD, create_user, start_tables

REFUSAL = re.compile(r'<p class="table-error" role="alert">([^<]*)</p>')
# How long an import may take before the run gives up on it.
IMPORT_TIMEOUT = 600.0


def multipart(field_name: str, filename: str, data: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body holding one file, and its content type."""
    boundary = f"----baloot{secrets.token_hex(8)}"
    body = (
        (
            f"--{boundary}\r\n"
            f'Content-Disposition: form-data; name="{field_name}"; filename="{filename}"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def upload(session: HttpSession, data: bytes) -> tuple[Response, float]:
    """POST ``data`` to the import page as a browser's form would; the answer and its time."""
    session.get("/matches/import/")
    body, content_type = multipart("document", "match.json", data)
    started = time.perf_counter()
    response = session.request(
        "POST",
        "/matches/import/",
        body=body,
        content_type=content_type,
        headers={"Referer": session.base_url + "/matches/import/"},
        timeout=120,
    )
    return response, time.perf_counter() - started


@dataclass
class Player:
    """A person in seat 1 of a bot table, acting whenever it is their turn."""

    session: HttpSession
    match_id: int
    # (seconds, status, body mentions a locked database) for each request.
    requests: list[tuple[float, int, bool]] = field(default_factory=list)
    actions: int = 0
    # What a refused move was told, for the failure message.
    refusals: list[str] = field(default_factory=list)

    def _timed(self, method: str, path: str, **kwargs: Any) -> Response:
        started = time.perf_counter()
        if method == "GET":
            response = self.session.get(path, **kwargs)
        else:
            response = self.session.post(path, **kwargs)
        elapsed = time.perf_counter() - started
        self.requests.append((elapsed, response.status, "database is locked" in response.text))
        return response

    def play(self, stop: threading.Event) -> None:
        while not stop.is_set():
            page = self._timed("GET", f"/match/{self.match_id}/")
            buttons = action_buttons(page.text)
            if page.seq is None or not buttons:
                if "t-match-over" in page.text and 'id="t-match-over" hidden' not in page.text:
                    return
                stop.wait(0.05)
                continue
            started = time.perf_counter()
            response = self.session.act(self.match_id, buttons[0], page.seq)
            elapsed = time.perf_counter() - started
            self.requests.append((elapsed, response.status, "database is locked" in response.text))
            if response.status >= 400:
                found = REFUSAL.search(response.text)
                said = found.group(1) if found else response.text[:200]
                self.refusals.append(f"{buttons[0]} at {page.seq}: {response.status} {said}")
            self.actions += 1


@dataclass
class ImportRun:
    """What one upload under load gave."""

    upload_status: int
    upload_seconds: float
    import_seconds: float
    job_page: str
    match_id: int | None
    players: list[Player]

    @property
    def requests(self) -> list[tuple[float, int, bool]]:
        return [r for p in self.players for r in p.requests]

    @property
    def actions(self) -> int:
        return sum(p.actions for p in self.players)

    def percentile(self, share: float) -> float:
        """The request time (seconds) that ``share`` of the players' requests stayed within."""
        times = sorted(r[0] for r in self.requests)
        if not times:
            return 0.0
        return times[min(len(times) - 1, int(share * len(times)))]


def import_under_load(
    stack: Stack, data: bytes, *, tables: int = 3, prefix: str = "ld"
) -> ImportRun:
    """Upload ``data`` while ``tables`` players act; returns once the import is over."""
    started_tables = start_tables(stack, tables, people=(1,), prefix=prefix)
    players = []
    for table in started_tables:
        session = HttpSession(stack.daphnes[0].url)
        name = table.players[1]
        assert name is not None
        session.log_in(name, PASSWORD)
        players.append(Player(session, table.match_id))
    uploader_name = f"{prefix}uploader"
    create_user(stack, uploader_name)
    uploader = HttpSession(stack.daphnes[0].url)
    uploader.log_in(uploader_name, PASSWORD)

    stop = threading.Event()
    threads = [threading.Thread(target=p.play, args=(stop,), daemon=True) for p in players]
    for thread in threads:
        thread.start()
    try:
        # The players are under way before the upload.
        time.sleep(1.0)
        began = time.perf_counter()
        response, upload_seconds = upload(uploader, data)
        job_page = response.headers.get("location", "")
        match_id = None
        if response.status == 302 and job_page:
            while time.perf_counter() - began < IMPORT_TIMEOUT:
                page = uploader.get(job_page)
                if page.status == 302:
                    location = page.headers["location"]
                    match_id = int(location.split("/matches/")[1].split("/")[0])
                    break
                if page.status != 200 or 'data-import-status="failed"' in page.text:
                    break
                time.sleep(0.2)
        import_seconds = time.perf_counter() - began
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    return ImportRun(response.status, upload_seconds, import_seconds, job_page, match_id, players)
