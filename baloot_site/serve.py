"""Serve the site: daphne's own command line, on uvloop's event loop.

``python -m baloot_site.serve [daphne's arguments]`` is ``daphne [daphne's
arguments]`` with three differences: a body over the site's limit is refused
before daphne reads it, the access log hides invite tokens
(``baloot_site.daphne_hooks``), and the asyncio loop under Twisted's reactor
is uvloop's (libuv, written in C) rather than asyncio's selector loop,
written in Python. A server process spends a good part of each push in that
loop: waking the consumers of a match's sockets, handing each frame to its
connection, polling the sockets. What uvloop saves daphne per action is
measured in docs/performance.md (``bench/live_bench.py --stack production
--tables 200 --bot-delay 0.8``).

daphne makes its loop when ``daphne.server`` is first imported, so the
loop's policy is set before that import. Twisted's asyncio reactor takes
any asyncio loop (uvloop included) since Twisted 21.7.
"""

from __future__ import annotations

import asyncio

import uvloop


def main() -> None:
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    # Imported only now: importing daphne's server makes its event loop.
    from daphne.cli import CommandLineInterface

    from baloot_site import daphne_hooks

    daphne_hooks.install()
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
