"""Fixtures of the real-world tests: a dedicated PostgreSQL database and Redis index.

The servers themselves are started by each module (``stacks.servers``),
since each needs its own layout. Whether PostgreSQL and Redis are there at
all is decided before these run, by the ``postgres`` and ``redis`` markers
(``tests/conftest.py``): a failure under CI=true, a skip elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from stacks.servers import (
    TEST_REDIS_DB,
    PostgresDatabase,
    flush_redis,
    postgres_problem,
    postgres_server_url,
    redis_problem,
    redis_server_url,
    with_path,
)
from tests.support.services import service_missing


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """The address of a new, empty PostgreSQL database, dropped after the module."""
    server = postgres_server_url()
    problem = postgres_problem(server)
    if problem:
        service_missing(problem)
    database = PostgresDatabase(server)
    database.create()
    try:
        yield database.url
    finally:
        database.drop()


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A Redis database index of the tests' own, empty before and after the module."""
    url = with_path(redis_server_url(), str(TEST_REDIS_DB))
    problem = redis_problem(url)
    if problem:
        service_missing(problem)
    flush_redis(url)
    try:
        yield url
    finally:
        # The Redis-restart test may leave it down for a moment; the index
        # is empty then anyway.
        if redis_problem(url) is None:
            flush_redis(url)
