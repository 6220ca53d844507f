"""The site run for real, for the tests and the benchmarks alike.

``tests/realworld``, ``tests/browser`` and a few other tests, and the live
benchmarks in ``bench/``, start the site's own processes and drive them from
outside, as its users would:

- ``servers``: daphne and worker processes on a database and channel layer
  of their own (``Stack``), configured by environment variables alone;
- ``clients``: a browser-like HTTP session and a table WebSocket;
- ``tables``: players and started tables, set up through the site's services;
- ``import_load``: a notation upload while other players act at their tables;
- ``documents``: long legal ``baloot/1`` documents to upload;
- ``browser``: the Chromium the browser tests and ``bench/restart_bench.py`` drive.

Nothing here asserts: the tests judge what they see, the benchmarks print it.
It lives outside ``tests/`` so that ``bench/`` needs nothing from the tests.
"""
