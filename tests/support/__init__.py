"""What the tests share: players, seeded deals, match drivers, log checks, processes.

Conftest files only declare fixtures; the helpers they and the tests use live
here, so a test imports from ``tests.support`` and never from a conftest.
"""
