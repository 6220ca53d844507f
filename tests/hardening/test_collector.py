"""The cycle collector's tuning for server processes (baloot_site.collector)."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

import pytest
from django.core.management import call_command

from baloot_site import collector
from games.management.commands import run_worker
from tests.support.processes import in_fresh_interpreter


@pytest.fixture
def restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_tuning_freezes_the_start_up_heap_and_spaces_collections_out(restored: None) -> None:
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    collector.tune_for_server()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (
        collector.YOUNG_ALLOCATIONS,
        collector.YOUNG_PER_MIDDLE,
        collector.MIDDLE_PER_FULL,
    )


def test_garbage_made_after_tuning_is_still_collected(restored: None) -> None:
    collector.tune_for_server()

    class Node:
        partner: object = None

    first, second = Node(), Node()
    first.partner, second.partner = second, first
    del first, second
    assert gc.collect() >= 2


def test_the_server_application_tunes_its_process() -> None:
    program = "import gc, baloot_site.asgi; print(gc.get_threshold()[0], gc.get_freeze_count() > 0)"
    environment = {**os.environ, "DJANGO_DEBUG": "1", "DJANGO_SECRET_KEY": "collector-test"}
    ran = in_fresh_interpreter(program, environment)
    assert ran.stdout.split() == [str(collector.YOUNG_ALLOCATIONS), "True"]


@pytest.mark.django_db(transaction=True)
def test_the_worker_tunes_its_process(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(run_worker, "tune_for_server", lambda: calls.append("tuned"))
    call_command("run_worker", "--once")
    assert calls == ["tuned"]
