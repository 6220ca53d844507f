"""The site's log filters (baloot_site.log_filters), as the settings install them."""

from __future__ import annotations

import asyncio
import logging

import pytest

PUBSUB = logging.getLogger("channels_redis.pubsub")


def log_failure(error: BaseException, message: str) -> None:
    try:
        raise error
    except BaseException:
        PUBSUB.exception(message)


def test_a_socket_cancelled_while_unsubscribing_is_not_logged_as_a_fault(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR):
        log_failure(asyncio.CancelledError(), "Unexpected exception while cleaning-up channel:")
        log_failure(ConnectionError("Redis went away"), "Unexpected exception in receive task")
    assert [record.getMessage() for record in caplog.records] == [
        "Unexpected exception in receive task"
    ]
