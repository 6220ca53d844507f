"""The match at one event (``MatchVersion``), and the versions this process knows (``STORE``).

A *version* is a match as committed at one event number: its row, its
seats, the engine state after that event. Every service that changes a
match returns one (inside its ``Outcome``), the announcement of the change
carries it to this process's store (``games.match.broadcast`` calls
``STORE.remember``), a step announced by another process brings one forward
(``games.match.steps.apply``), and ``read`` makes one from the database.

The store keeps the latest version of each match this process moved, read
or followed, with the announcements it reflects (their *revision* tokens).
Two readers share it: the worker, which plays a match's turns one after
another and so need not read back from the log the state it committed a
moment before (``recall``); and the table's sockets, which draw every
viewer's picture from the one version kept rather than reading the match
once per socket (``games.table.live``).

The log stays the truth: events are only ever appended, so the state at a
match's event N is the same whoever folds it, and a version is never
replaced by an earlier one. A change made by another process and not heard
of simply misses, and the match is read from the database as before.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from datetime import datetime

from games import rules
from games.match import rows
from games.match.event_log import LogError, fold, load_state
from games.match.models import Event, Match, Seat

logger = logging.getLogger(__name__)

# Matches kept, the least recently moved dropped first.
KEPT = 2_000
# Announcements remembered per match, to tell one already reflected from a new one.
REVISIONS_KEPT = 64
# Reading loads the match row and then its events; a commit in between would
# pair a state with the wrong event number, so the read is retried.
CONSISTENT_READ_ATTEMPTS = 5


@dataclass(frozen=True)
class MatchVersion:
    """A match, its seats (by number, their players loaded) and its engine state at one
    event number. Never changed once made: a later event makes another version."""

    match: Match
    state: rules.State
    seats: dict[int, Seat]
    # False when the match moved on while being read, so that the state may
    # be ahead of its number: nothing may build on it.
    consistent: bool = True

    @property
    def seq(self) -> int:
        """The event number the state belongs to."""
        return self.match.seq

    @property
    def revision(self) -> datetime:
        """What tells this match from another that took its number later (a database
        emptied and filled again): the row's creation time."""
        return self.match.created_at

    def follows_on(self, match: Match) -> bool:
        """True when ``match`` is this version's match at this event or later."""
        return match.pk == self.match.pk and match.created_at == self.revision


def read(match_id: int, since: MatchVersion | None = None) -> MatchVersion:
    """The match as committed now, its state together with the event number it belongs to.

    The match row comes with its seats (one query), then the state (two).
    With ``since``, an earlier consistent version of the same match, the
    state is that one's with the events after it applied: one query for
    those events instead of the snapshots and the whole deal's events, and
    no snapshot to decode. Raises Match.DoesNotExist.
    """
    for _attempt in range(CONSISTENT_READ_ATTEMPTS):
        match, seats = _match_and_seats(match_id)
        if since is not None and since.consistent and since.follows_on(match):
            built = _state_after(since, match)
            if built is not None:
                return MatchVersion(match, built, seats)
        state = load_state(match)
        seq_after = Match.objects.filter(pk=match_id).values_list("seq", flat=True).get()
        if seq_after == match.seq:
            return MatchVersion(match, state, seats)
    # A very busy table: the state may be a move ahead of its number,
    # which only makes the next action from this picture look stale.
    logger.info("match %s kept moving while being read", match_id)
    return MatchVersion(match, state, seats, consistent=False)


def _match_and_seats(match_id: int) -> tuple[Match, dict[int, Seat]]:
    """The match row and its seats, in one statement written once per process
    (``games.match.rows``) rather than compiled by the ORM at every reading; raises
    Match.DoesNotExist."""
    found = rows.match_with_seats(match_id)
    if found is None or not found[1]:
        raise Match.DoesNotExist
    return found


def _state_after(since: MatchVersion, match: Match) -> rules.State | None:
    """``since``'s state brought up to ``match``'s event number; None when it cannot be.

    The events up to the number the match row shows were committed with
    it or before, so reading them up to that number needs no second look
    at the row. A log that does not fit the earlier state (not ours to
    judge here) is left to the full reading.
    """
    if since.seq > match.seq:
        return None
    if since.seq == match.seq:
        return since.state
    events = Event.objects.filter(match=match, seq__gt=since.seq, seq__lte=match.seq)
    try:
        return fold(since.state, events.order_by("seq"))
    except LogError:
        return None


@dataclass
class _Kept:
    version: MatchVersion
    revisions: deque[str] = field(default_factory=lambda: deque(maxlen=REVISIONS_KEPT))


class Versions:
    """The latest version of each match a process knows, and the announcements it reflects.

    Read and written from the server's threads at once. ``STORE`` is the
    process's; a test stands for another process with a store of its own.
    """

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._kept: OrderedDict[int, _Kept] = OrderedDict()

    def remember(self, version: MatchVersion, revision: str | None = None) -> MatchVersion:
        """Keep ``version`` as its match's latest unless a later one is kept (of the same
        match); ``revision`` names the announcement it reflects. Returns the latest."""
        match_id = version.match.pk
        with self._lock:
            kept = self._kept.get(match_id)
            if kept is None or not version.follows_on(kept.version.match):
                kept = self._kept[match_id] = _Kept(version)
            elif kept.version.seq <= version.seq:
                kept.version = version
            if revision is not None and kept.version is version:
                kept.revisions.append(revision)
            self._kept.move_to_end(match_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
            return kept.version

    def follow(self, earlier: MatchVersion, version: MatchVersion, revision: str | None) -> bool:
        """Keep ``version``, which a step brought ``earlier`` to, if ``earlier`` is still
        its match's latest; False when another was kept meanwhile (as good, or later)."""
        with self._lock:
            kept = self._kept.get(version.match.pk)
            if kept is None or kept.version is not earlier:
                return False
            kept.version = version
            if revision is not None:
                kept.revisions.append(revision)
            self._kept.move_to_end(version.match.pk)
            return True

    def latest(self, match_id: int) -> MatchVersion | None:
        """The latest version kept of the match, whatever its number."""
        with self._lock:
            kept = self._kept.get(match_id)
            return kept.version if kept is not None else None

    def known(self, match_id: int, seq: int, revision: str | None) -> MatchVersion | None:
        """The version kept of the match at event ``seq`` or later, reflecting
        ``revision``; None when only the database can say (never reads it)."""
        with self._lock:
            kept = self._kept.get(match_id)
            if kept is None:
                return None
            version = kept.version
            if version.seq > seq or (
                version.seq == seq and (revision is None or revision in kept.revisions)
            ):
                return version
        return None

    def recall(self, match: Match) -> rules.State | None:
        """The committed state of ``match`` (a row just locked) at its current event
        number, if this process has it."""
        version = self.latest(match.pk)
        if (
            version is None
            or not version.consistent
            or version.seq != match.seq
            or not version.follows_on(match)
        ):
            return None
        return version.state

    def forget(self) -> None:
        """Drop every version kept."""
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)


STORE = Versions()
