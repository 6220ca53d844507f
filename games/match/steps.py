"""A committed change of a match as its announcement carries it to the other server processes.

Every server process keeps the latest version of the matches it knows
(``games.match.versions``). When another process (the worker, the other
daphne) moves a match, the announcement used to say only "match M is at
event N", and each process then read the match row, its seats and the new
events back from the database. Now an announcement of a service's outcome
also carries the *step* that led there: the new events as recorded, and the
match row and its seats as committed with them. A process whose kept version
is at the event the step starts from applies the events through the rules
engine and takes the rows as they are, with no query at all (``apply``); one
that has no version, or one at another event (it missed an announcement),
reads the database as before. The log stays the truth: a step that does not fit is
simply not taken.

A step carries nothing that a spectator could not see: the channel layer
runs through Redis, which others may read (README, "Redis"). So a step
holds only events whose every field is public the moment it is recorded
(bids, doubles, cards played, a Sawa claim...); a deal (its deck is every
hand) or a declaration (its cards stay hidden until the first trick ends,
D18) is never carried, and the processes that keep the match read the
database for it, once per deal and declaration. The match row goes without
its invite token and its imported document's header: a process takes both
from its own version, which the step must follow on from, and reads the
database when the invite changed meanwhile.

A step is sealed with a keyed hash (HMAC-SHA256, with a key derived from the
site's secret key, the previous keys still accepted during a rotation): a
process takes a step only when the seal is good, so one published by
anything but a server of the site is dropped and the pages read the database.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.crypto import constant_time_compare, salted_hmac

from games.match.event_log import CURRENT_PAYLOAD_VERSION, LogError, apply_recorded
from games.match.models import Event, Match, Seat
from games.match.versions import MatchVersion

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


# The match's columns a step leaves out: the invite token, which would let
# anyone who reads Redis into a private table, and an imported document's
# header, which no running match has. The receiving process keeps its own.
KEPT_BY_RECEIVER = ("invite_token", "notation_header")
# Every other stored column is carried, so that a field added to the match or
# the seat one day is carried too rather than silently left stale.
MATCH_COLUMNS = tuple(column for column in _columns(Match) if column[0] not in KEPT_BY_RECEIVER)
SEAT_COLUMNS = _columns(Seat)
MATCH_NAMES = [name for name, _time in MATCH_COLUMNS]
SEAT_NAMES = [name for name, _time in SEAT_COLUMNS]
# The fields of an action that everyone sees as soon as it is recorded
# (notation.md): a step carries an action only when it has no other field.
# A declaration (its cards hidden until the first trick ends) is left out.
PUBLIC_ACTION_FIELDS = frozenset(
    {"seat", "bid", "trump", "redeal", "double", "lock", "play", "baloot", "sawa", "auto", "at"}
)
# What the seal's key is derived for (Django's salted HMAC).
SEAL_SALT = "games.match.steps"
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


def step_of(version: MatchVersion, events: Sequence[Appended]) -> dict[str, str] | None:
    """The step that brought ``version`` to its event by ``events``, sealed, to announce;
    None when it cannot be: the events do not run up to the version's event number
    without a gap, or one of them is not public (a deal, a declaration).
    """
    match = version.match
    if not events or events[-1].seq != match.seq:
        return None
    if any(later.seq != earlier.seq + 1 for earlier, later in pairwise(events)):
        return None
    if not all(is_public(e.kind, e.payload) for e in events):
        return None
    return seal(
        {
            "base": events[0].seq - 1,
            "events": [[e.kind, e.payload_version, e.payload] for e in events],
            "match": _row(match, MATCH_COLUMNS),
            "seats": [_row(seat, SEAT_COLUMNS) for _n, seat in sorted(version.seats.items())],
        }
    )


def is_public(kind: str, payload: dict[str, Any]) -> bool:
    """True when every field of the event is public once recorded: an action of public
    fields only (``PUBLIC_ACTION_FIELDS``); never a deal, an abort or a declaration."""
    return kind == Event.Kind.ACTION and PUBLIC_ACTION_FIELDS.issuperset(payload)


def seal(step: dict[str, Any]) -> dict[str, str]:
    """``step`` as JSON text with its seal (an HMAC with the site's current key)."""
    body = json.dumps(step, separators=(",", ":"))
    return {"body": body, "seal": _seal(body, settings.SECRET_KEY)}


def opened(sealed: Any) -> dict[str, Any] | None:
    """The step inside ``sealed``; None unless its seal is good under the site's key or
    one of its previous keys (``SECRET_KEY_FALLBACKS``)."""
    if not isinstance(sealed, dict):
        return None
    body, mark = sealed.get("body"), sealed.get("seal")
    if not isinstance(body, str) or not isinstance(mark, str):
        return None
    keys = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    if not any(constant_time_compare(mark, _seal(body, key)) for key in keys):
        return None
    try:
        step = json.loads(body)
    except ValueError:
        return None
    return step if isinstance(step, dict) else None


def _seal(body: str, key: str) -> str:
    return salted_hmac(SEAL_SALT, body, secret=key, algorithm="sha256").hexdigest()


def decode(sealed: Any) -> Step | None:
    """The step as announced, its seal checked and its contents decoded; None when the
    seal is not good or the step is not one this code can read."""
    step = opened(sealed)
    if step is None:
        return None
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


def complete(match: Match, earlier: Match) -> bool:
    """Give ``match`` (a step's) the columns a step leaves out, from ``earlier``: the
    receiving process's version of the same match. False when the invite was issued
    again or turned off since that version: only the database knows the token then.
    """
    if match.invite_issued_at != earlier.invite_issued_at:
        return False
    for name in KEPT_BY_RECEIVER:
        setattr(match, name, getattr(earlier, name))
    return True


def seat_values(seat: Seat) -> tuple[Any, ...]:
    """The stored values of ``seat``, as a step's seat rows hold them."""
    return tuple(getattr(seat, name) for name, _time in SEAT_COLUMNS)


def seat_from(values: Sequence[Any]) -> Seat:
    """A seat instance from the stored values of a step's seat row."""
    return Seat.from_db(DATABASE, SEAT_NAMES, values)


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


def apply(version: MatchVersion, sealed: Any) -> MatchVersion | None:
    """``version`` brought forward by the announced step ``sealed``; None when its seal
    is not good, it does not start from ``version``, or its events do not fit (only
    the database can say then).

    The match row and the seats are the step's, as committed with its
    events; a seat whose values did not change is the version's own, and a
    seat taken by someone the version does not know needs the database for
    their name. A table that has not started is left to the database: the
    start sets what its first state is dealt from.
    """
    step = decode(sealed)
    if step is None:
        return None
    match = step.match
    earlier = version.match
    if (
        not version.consistent
        or version.seq != step.base
        or not version.follows_on(match)
        or earlier.status == Match.Status.WAITING
        or match.seq != step.base + len(step.events)
        or not complete(match, earlier)
    ):
        return None
    state = version.state
    try:
        for seq, kind, payload_version, payload in step.events:
            state = apply_recorded(state, seq, kind, payload, payload_version)
    except LogError:
        return None
    seats: dict[int, Seat] = {}
    for values in step.seats:
        seat = _seat_after(version.seats, values, match)
        if seat is None:
            return None
        seats[seat.number] = seat
    if seats.keys() != version.seats.keys():
        return None
    return MatchVersion(match, state, seats)


def _seat_after(seats: dict[int, Seat], values: tuple[Any, ...], match: Match) -> Seat | None:
    """The seat stored as ``values``, made from ``seats`` (a version's); None when its
    occupant is someone those seats do not show."""
    earlier = seats.get(values[SEAT_NUMBER])
    if earlier is not None and seat_values(earlier) == values:
        return earlier
    user_id = values[SEAT_USER]
    if user_id is not None and (earlier is None or earlier.user_id != user_id):
        return None
    seat = seat_from(values)
    Seat.user.field.set_cached_value(seat, earlier.user if earlier and user_id else None)
    Seat.match.field.set_cached_value(seat, match)
    return seat
