"""The site's server command (``python -m baloot_site.serve``) is daphne on uvloop's loop.

Started as ``scripts/run.sh`` and the test stacks start it, with an
application that names the event loop answering it: the loop must be
uvloop's, made before daphne made its own (baloot_site.serve sets the
policy before importing daphne's server).
"""

from __future__ import annotations

import os
import urllib.request
from pathlib import Path

from stacks.servers import Daphne


def test_the_server_command_runs_daphne_on_uvloop(tmp_path: Path):
    server = Daphne(
        "serve", dict(os.environ), tmp_path / "serve.log", "tests.support.loop_app:application"
    )
    assert server.argv[1:3] == ["-m", "baloot_site.serve"]
    try:
        server.start_and_wait()
        with urllib.request.urlopen(server.url, timeout=10) as response:
            assert response.read().decode() == "uvloop.Loop"
    finally:
        server.stop()
    # daphne's own start-up lines: the command is daphne's, not a server of its own.
    assert "Listening on TCP address 127.0.0.1" in server.log()
