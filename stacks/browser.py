"""The browser the tests and benchmarks drive: Debian's Chromium, headless and quiet."""

from __future__ import annotations

# Debian's Chromium: the browser tests drive this one, never a downloaded build.
CHROMIUM = "/usr/bin/chromium"
# Headless, and quiet: this machine's network is closed, so the browser's own
# background connections (updates, sync, QUIC probes) are turned off.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
