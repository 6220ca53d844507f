"""The engine state of the matches this process moved last, as committed.

A worker plays a match's turns one after another: each time it locked the
match and read its state back from the log (the deal's snapshot and the
events after it), although it had itself committed that very state a
moment before. Each announcement made here carries its outcome
(``games.match.broadcast``); once committed, its state is kept by match,
with the event number it belongs to and the match's creation time, and
``recall`` gives it back only for the same match at that same number.

The log stays the truth: events are only ever appended, so the state at
a match's event N is the same whoever folds it, and a number the match has
moved past is never given back. A change made by another process simply
misses, and the state is read from the log as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime

from games import rules
from games.match.broadcast import Notice, listen
from games.match.models import Match

# Matches kept, the least recently moved dropped first.
KEPT = 2_000

_lock = threading.Lock()
_states: OrderedDict[int, tuple[datetime, int, rules.State]] = OrderedDict()


def recall(match: Match) -> rules.State | None:
    """The committed state of ``match`` at its current event number, if this process has it."""
    with _lock:
        kept = _states.get(match.pk)
    if kept is None:
        return None
    created_at, seq, state = kept
    if seq != match.seq or created_at != match.created_at:
        return None
    return state


def forget() -> None:
    """Drop every kept state."""
    with _lock:
        _states.clear()


def _on_announcement(notice: Notice) -> None:
    """Keep the state a committed change of this process left its match in."""
    outcome = notice.outcome
    if outcome is None:
        return
    match = outcome.match
    # The outcome's match row may have moved on in the same transaction
    # after this announcement; its state then belongs to an earlier number.
    if match.pk != notice.match_id or match.seq != notice.seq:
        return
    with _lock:
        _states[match.pk] = (match.created_at, match.seq, outcome.state)
        _states.move_to_end(match.pk)
        while len(_states) > KEPT:
            _states.popitem(last=False)


listen(_on_announcement)
