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


def empty_redis_index(index: int) -> Iterator[str]:
    """The local Redis's database ``index``, empty before and after a module uses it."""
    url = with_path(redis_server_url(), str(index))
    problem = redis_problem(url)
    if problem:
        service_missing(problem)
    flush_redis(url)
    try:
        yield url
    finally:
        flush_redis(url)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A Redis database index of the tests' own, empty before and after the module."""
    yield from empty_redis_index(TEST_REDIS_DB)
