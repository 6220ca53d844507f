"""Body bench: how much an oversized anonymous POST grows a daphne process before it is refused.

Starts the site twice, one daphne process each on a SQLite file of its own,
DEBUG off: once with plain ``daphne`` and once with the site's server
command (``python -m baloot_site.serve``, whose ``baloot_site.daphne_hooks``
refuse a body over ``DJANGO_MAX_REQUEST_BYTES`` before reading it). Each is
sent one anonymous POST of ``--megabytes`` (200 by default) to the import
page, its ``Content-Length`` announced, without a proxy in front. Prints,
for each, the answer's status, the time from the headers to the answer, and
the process's resident memory before and at its peak (``VmRSS`` and
``VmHWM`` from /proc). Prints figures, asserts nothing.

Run: ``.venv/bin/python bench/body_bench.py [--megabytes 200]``.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stacks.servers import Daphne, Stack  # noqa: E402

CHUNK = 1 << 20


def memory(pid: int) -> dict[str, int]:
    """The process's resident memory now and at its peak, in MB (from /proc)."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0]) // 1024
    return found


def post(port: int, megabytes: int) -> tuple[str, float]:
    """POST ``megabytes`` of body; the answer's status line and the seconds it took."""
    size = megabytes * CHUNK
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(
            b"POST /matches/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/octet-stream\r\nConnection: close\r\n"
            b"Content-Length: " + str(size).encode() + b"\r\n\r\n"
        )
        started = time.monotonic()
        connection.settimeout(0.0)
        answer = b""
        chunk = b"x" * CHUNK
        sent = 0
        # Send until the server answers or the whole body is sent, then read the answer.
        while sent < size:
            try:
                answer += connection.recv(65536)
            except BlockingIOError:
                pass
            except OSError:
                break
            if answer:
                break
            try:
                sent += connection.send(chunk[: min(CHUNK, size - sent)])
            except BlockingIOError:
                time.sleep(0.001)
            except OSError:
                break
        connection.settimeout(120.0)
        try:
            while b"\r\n" not in answer:
                received = connection.recv(65536)
                if not received:
                    break
                answer += received
        except OSError:
            pass
        elapsed = time.monotonic() - started
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "no answer"
    return status, elapsed


def measure(server: str, megabytes: int, workdir: Path) -> None:
    stack = Stack(f"sqlite:///{workdir / 'db.sqlite3'}", None, workdir, servers=1, workers=0)
    daphne: Daphne = stack.daphnes[0]
    if server == "daphne":
        # Plain daphne: the same arguments, without the site's server command.
        daphne.argv = [sys.executable, "-m", "daphne", *daphne.argv[3:]]
    stack.prepare()
    stack.start()
    try:
        before = memory(daphne.pid)
        status, seconds = post(daphne.port, megabytes)
        # daphne may still be reading what it was sent: its peak settles after.
        time.sleep(1.0)
        after = memory(daphne.pid)
    finally:
        stack.stop()
    name = "plain daphne" if server == "daphne" else "the server command"
    print(
        f"{name + ':':<20} {status}, answered {seconds:.2f} s after the headers;"
        f" resident {before['VmRSS']} MB before, peak {after['VmHWM']} MB"
        f" (+{after['VmHWM'] - before['VmRSS']} MB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=200, help="size of the body sent")
    args = parser.parse_args()
    print(f"an anonymous POST of {args.megabytes} MB to /matches/import/, no proxy in front")
    for server in ("daphne", "serve"):
        with tempfile.TemporaryDirectory(prefix="body-bench-") as workdir:
            measure(server, args.megabytes, Path(workdir))


if __name__ == "__main__":
    main()
