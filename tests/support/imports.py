"""Running the worker's part of an import inside a test: storing the queued uploads."""

from __future__ import annotations

from games.worker import imports


def store_queued_imports(passes: int = 10_000) -> int:
    """Let the worker store every queued upload, pass by pass; returns the passes made."""
    made = 0
    while made < passes and imports.store_some():
        made += 1
    return made
