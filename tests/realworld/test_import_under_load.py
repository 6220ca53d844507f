"""A legal 200-deal import while other players act: the site keeps answering.

Before imports ran in the worker, one upload stored every deal in one
transaction inside the request: on SQLite the write lock was held for the
whole import, and other players' moves failed with "database is locked".
Here real servers run as shipped — the embedded default (one daphne with the
worker inside, on a SQLite file) and the production stack (PostgreSQL and
Redis, a separate worker) — and people at three bot tables keep acting while
a 200-deal document is uploaded and imported.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from stacks.documents import long_document
from stacks.import_load import import_under_load
from stacks.servers import Stack

DEALS = 200


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.redis]),
    ]
)
def stack(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stack]:
    if request.param == "sqlite":
        site = Stack(f"sqlite:///{tmp_path / 'db.sqlite3'}", None, tmp_path, servers=1, workers=0)
    else:
        site = Stack(
            request.getfixturevalue("postgres_url"),
            request.getfixturevalue("redis_url"),
            tmp_path,
            servers=1,
            workers=1,
        )
    site.prepare()
    site.start()
    try:
        yield site
    finally:
        site.stop()


def test_a_200_deal_import_leaves_the_site_answering_other_players(stack: Stack):
    data = long_document(DEALS).encode()
    run = import_under_load(stack, data)
    times = sorted(r[0] for r in run.requests)
    print(
        f"{DEALS}-deal import ({len(data) // 1024} KB): upload answered in "
        f"{run.upload_seconds * 1000:.0f} ms, match ready after {run.import_seconds:.1f} s; "
        f"{run.actions} moves and {len(times)} requests by other players meanwhile, "
        f"p50 {run.percentile(0.5) * 1000:.0f} ms, p99 {run.percentile(0.99) * 1000:.0f} ms"
    )
    assert run.upload_status == 302, "the upload was not accepted"
    assert run.match_id is not None, f"the import did not finish: {stack.logs()}"
    deals = stack.rows(
        "SELECT count(*) FROM games_event WHERE match_id = %s AND kind = 'deal'", run.match_id
    )
    assert deals == [(DEALS,)]
    # The others kept playing, and every one of their requests was answered:
    # a page, or at most the game's own "the table has moved on" (409) when a
    # move raced the table's clock — never a server error or a lock.
    refusals = [said for player in run.players for said in player.refusals]
    statuses = [status for _t, status, _locked in run.requests]
    assert set(statuses) <= {200, 302, 409}, refusals
    assert statuses.count(409) <= max(2, len(statuses) // 50), refusals
    assert run.actions - statuses.count(409) >= 5
    assert not any(locked for _t, _status, locked in run.requests)
    assert "database is locked" not in "".join(stack.logs().values())
    assert stack.tracebacks() == []
