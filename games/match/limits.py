"""How many new tables a player may be seated at: one count, whichever way they got there.

The lobby counts its POSTs with django-ratelimit's decorator (groups
``tables`` and ``bot_matches``, keyed by the player, rates
``settings.RATE_LIMITS``). A table the site seats people at without such a
POST (a quick match, a rematch) is counted here against the same counters,
once for each person seated, so that quick match and rematch make no more
tables than the lobby allows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django_ratelimit import ALL
from django_ratelimit.core import get_usage

from baloot_site.limits import rate

TABLES = "tables"
BOT_MATCHES = "bot_matches"
# The rate limit (settings.RATE_LIMITS) of each counter.
_RATES = {TABLES: "TABLES", BOT_MATCHES: "BOT_MATCHES"}


def _usage(group: str, user_id: int, *, increment: bool) -> dict[str, Any] | None:
    """django-ratelimit's usage of ``group`` for ``user_id``: the decorator's own counter.

    The decorator's key ``user`` is the player's id, its method ALL; no
    request is needed to find the counter from those.
    """
    return get_usage(
        None,
        group=group,
        key=lambda _group, _request: str(user_id),
        rate=rate(_RATES[group]),
        method=ALL,
        increment=increment,
    )


def exhausted(group: str, user_id: int) -> bool:
    """True when one more table would take ``user_id`` past the ``group`` limit."""
    usage = _usage(group, user_id, increment=False)
    # A cache that cannot be read gives a limit of 0: refused, as the decorator would.
    return usage is not None and usage["count"] >= usage["limit"]


def count(group: str, user_ids: Iterable[int]) -> None:
    """Count one new table against ``group`` for each of ``user_ids``.

    Counted at once, as the lobby's decorator counts a request whatever
    becomes of it: a table whose transaction fails still counts.
    """
    for user_id in user_ids:
        _usage(group, user_id, increment=True)
