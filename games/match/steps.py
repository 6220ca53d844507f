"""A committed change of a match as its announcement carries it to the other server processes.

Every server process keeps the latest reading of the matches its sockets
watch (``games.table.live``). When another process (the worker, the other
daphne) moves a match, the announcement used to say only "match M is at
event N", and each process then read the match row, its seats and the new
events back from the database. Now an announcement of a service's outcome
also carries the *step* that led there: the new events as recorded, and the
match row and its seats as committed with them. A process whose kept reading
is at the event the step starts from applies the events through the rules
engine and takes the rows as they are, with no query at all; one that has
no reading, or one at another event (it missed an announcement), reads the
database as before. The log stays the truth: a step that does not fit is
simply not taken.

A step holds hidden cards (a deal's deck, a declaration), so it must never
reach a client: it travels only through the channel layer, which is inside
the server, and the consumers draw what they send only through the
seat-view function (``rules.view_for``). A deal's secret seed is left out:
applying the deal needs only its deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from django.db import models

from games.match.event_log import CURRENT_PAYLOAD_VERSION
from games.match.models import Event, Match, Seat

# Where a service's match instance collects the events it appended in the
# current transaction (``note_appended``): the instance lives no longer than
# the transaction, so a rolled-back event is never announced.
APPENDED = "_appended_events"


def _columns(model: type[models.Model]) -> tuple[tuple[str, bool], ...]:
    """Each stored column of ``model`` (its attribute name), and whether it holds a time."""
    return tuple(
        (field.attname, isinstance(field, models.DateTimeField))
        for field in model._meta.concrete_fields
    )


# Every stored column is carried, so that a field added to the match or the
# seat one day is carried too rather than silently left stale.
MATCH_COLUMNS = _columns(Match)
SEAT_COLUMNS = _columns(Seat)
MATCH_NAMES = [name for name, _time in MATCH_COLUMNS]
SEAT_NAMES = [name for name, _time in SEAT_COLUMNS]
# Where a seat row holds the seat's number and its occupant.
SEAT_NUMBER = SEAT_NAMES.index("number")
SEAT_USER = SEAT_NAMES.index("user_id")
# The instances a step makes stand for rows of the one database the site uses.
DATABASE = "default"


@dataclass(frozen=True)
class Step:
    """A step decoded: the events after ``base`` and the rows as they were committed."""

    base: int
    events: tuple[tuple[int, str, int, dict[str, Any]], ...]
    match: Match
    seats: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class Appended:
    """An event as appended to a match: its number, kind and payload (current format)."""

    seq: int
    kind: str
    payload: dict[str, Any]
    payload_version: int = CURRENT_PAYLOAD_VERSION


def note_appended(match: Match, kind: str, payload: dict[str, Any]) -> None:
    """Remember the event numbered ``match.seq``, just appended to ``match``, for the
    announcement of the change."""
    match.__dict__.setdefault(APPENDED, []).append(Appended(match.seq, kind, payload))


def take_appended(match: Match) -> list[Appended]:
    """The events noted on ``match`` since they were last taken (each is announced once)."""
    events: list[Appended] = match.__dict__.pop(APPENDED, None) or []
    return events


def step_of(
    match: Match, seats: dict[int, Seat] | None, events: Sequence[Appended]
) -> dict[str, Any] | None:
    """The step that brought ``match`` to its current event by ``events``, to announce;
    None when unknown: the seats were not read with the change, or the events
    do not run up to the match's event number without a gap.
    """
    if seats is None or not events or events[-1].seq != match.seq:
        return None
    if any(later.seq != earlier.seq + 1 for earlier, later in pairwise(events)):
        return None
    return {
        "base": events[0].seq - 1,
        "events": [[e.kind, e.payload_version, _shared(e.kind, e.payload)] for e in events],
        "match": _row(match, MATCH_COLUMNS),
        "seats": [_row(seat, SEAT_COLUMNS) for _n, seat in sorted(seats.items())],
    }


def decode(step: dict[str, Any]) -> Step | None:
    """The step as announced, decoded; None when it is not one this code can read."""
    try:
        base = int(step["base"])
        events = tuple(
            (base + n, str(kind), int(version), payload)
            for n, (kind, version, payload) in enumerate(step["events"], start=1)
        )
        match = Match.from_db(DATABASE, MATCH_NAMES, _values(step["match"], MATCH_COLUMNS))
        seats = tuple(tuple(_values(row, SEAT_COLUMNS)) for row in step["seats"])
    except (KeyError, TypeError, ValueError):
        return None
    if any(not isinstance(payload, dict) for *_rest, payload in events):
        return None
    return Step(base, events, match, seats)


def seat_values(seat: Seat) -> tuple[Any, ...]:
    """The stored values of ``seat``, as a step's seat rows hold them."""
    return tuple(getattr(seat, name) for name, _time in SEAT_COLUMNS)


def seat_from(values: Sequence[Any]) -> Seat:
    """A seat instance from the stored values of a step's seat row."""
    return Seat.from_db(DATABASE, SEAT_NAMES, values)


def _shared(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as a step carries it: a deal without its secret seed."""
    if kind != Event.Kind.DEAL or "deal" not in payload:
        return payload
    deal = {name: value for name, value in payload["deal"].items() if name != "seed"}
    return {**payload, "deal": deal}


def _row(instance: models.Model, columns: Iterable[tuple[str, bool]]) -> list[Any]:
    """The stored values of ``instance`` in column order, times as ISO text."""
    row = []
    for name, is_time in columns:
        value = getattr(instance, name)
        if is_time and value is not None:
            value = value.isoformat()
        elif isinstance(value, str):
            # A choice given as its enumeration member is stored as its text.
            value = str(value)
        row.append(value)
    return row


def _values(row: Sequence[Any], columns: Sequence[tuple[str, bool]]) -> list[Any]:
    """``_row``'s values turned back into what the database gives; raises ValueError."""
    if len(row) != len(columns):
        raise ValueError("a row of another shape")
    return [
        datetime.fromisoformat(value) if is_time and value is not None else value
        for value, (_name, is_time) in zip(row, columns, strict=True)
    ]
