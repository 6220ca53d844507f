"""The rows every recorded action reads and writes, in statements written once per process.

Each action locks its match row, reads the four seats (with their
players), inserts one event and updates the match's projected fields.
Built by the ORM, each of those statements cost more to compile than the
database took to run it (about half a millisecond each, the worker's
largest item after the bots). Here each is written once per process from
the models' own metadata (tables, columns, converters), so a renamed field
or a new column needs no change, and run with its values; the rows come
back as the same model instances the ORM would have built.

``lock_with_seats`` takes the match row and its seats in one statement.
It locks the seat rows too (``FOR UPDATE OF`` both), so that PostgreSQL
hands back their latest committed versions along with the match's: every
service that changes a seat holds the match row's lock, so a seat locked
by someone else means the match is busy. SQLite has no row locks; its
transactions take the write lock when they begin, which serialises them
(``transaction_mode IMMEDIATE``).

On PostgreSQL a recorded action's writes (its events, the match's update,
the outbox row of its announcement) go to the server in one statement, a
round trip and a statement's overhead instead of three: inside
``combined_writes`` the events and the update are held on the match
instance, and ``write_held`` sends them at the announcement, as common
table expressions in front of the outbox row's INSERT. Each row is the one
the separate statements wrote, values prepared at the same moment, and the
unique (match, seq) refuses a twin all the same: the statement fails
(``EventRefused``) and the transaction with it. SQLite writes each at once,
as before: its writes cost no round trip, and it has no data-modifying
common table expressions.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from games.match.models import SEAT_NUMBERS, Event, Match, Seat

Converter = Callable[[Any, Any, Any], Any]


class _Columns:
    """One model's concrete columns under a table alias, and how to build an instance."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        fields = model._meta.concrete_fields
        self.names = [field.attname for field in fields]
        quote = connection.ops.quote_name
        self.select = ", ".join(f"{alias}.{quote(field.column)}" for field in fields)
        # Only the columns that have converters (few do): the others are
        # taken as the database sent them.
        self.converters: list[tuple[int, list[Converter]]] = []
        for index, field in enumerate(fields):
            column = field.get_col(alias)
            converters = [
                *connection.ops.get_db_converters(column),
                *column.get_db_converters(connection),
            ]
            if converters:
                self.converters.append((index, converters))

    def build(self, values: Sequence[Any], db: BaseDatabaseWrapper | None = None) -> Model:
        """The instance of ``values`` (this model's columns, as the database ``db``, the
        default one unless given, sent them)."""
        if db is None:
            db = connections[DEFAULT_DB_ALIAS]
        if self.converters:
            values = list(values)
            for index, converters in self.converters:
                for convert in converters:
                    values[index] = convert(values[index], None, db)
        return self.model.from_db(db.alias, self.names, values)


class _Statements:
    """The statements of one database connection's vendor, written on first use."""

    def __init__(self) -> None:
        quote = connection.ops.quote_name
        self.match = _Columns(Match, "m")
        self.seat = _Columns(Seat, "s")
        self.user = _Columns(get_user_model(), "u")
        user_table = quote(get_user_model()._meta.db_table)
        match_table, seat_table = quote(Match._meta.db_table), quote(Seat._meta.db_table)
        seat_match = quote(Seat._meta.get_field("match").column)
        seat_user = quote(Seat._meta.get_field("user").column)
        seat_number = quote(Seat._meta.get_field("number").column)
        match_id = quote(Match._meta.pk.column)
        user_id = quote(get_user_model()._meta.pk.column)
        self.match_id = match_id
        # A seat without a player has NULL in every player column, its key included.
        self.user_pk = self.user.names.index(get_user_model()._meta.pk.attname)
        self.match_width = len(self.match.names)
        self.seat_width = len(self.seat.names)
        self.locks = connection.features.has_select_for_update
        self.skips = connection.features.has_select_for_update_skip_locked
        self.lock = f"SELECT {self.match.select} FROM {match_table} m WHERE m.{match_id} = %s"
        self.lock_locked = self.lock + (" FOR UPDATE" if self.locks else "")
        self.seats = (
            f"SELECT {self.seat.select}, {self.user.select} FROM {seat_table} s"
            f" LEFT JOIN {user_table} u ON u.{user_id} = s.{seat_user}"
            f" WHERE s.{seat_match} = %s ORDER BY s.{seat_number}"
        )
        self.both = (
            f"SELECT {self.match.select}, {self.seat.select}, {self.user.select}"
            f" FROM {match_table} m JOIN {seat_table} s ON s.{seat_match} = m.{match_id}"
            f" LEFT JOIN {user_table} u ON u.{user_id} = s.{seat_user}"
            f" WHERE m.{match_id} = %s ORDER BY s.{seat_number}"
        )
        # PostgreSQL: the match row once, then its seats. Joined, every seat
        # row carried the match's columns again, and the driver read each of
        # them (five times stamps among them) for the first row's copy only.
        self.apart = connection.vendor == "postgresql"
        if self.apart:
            seat_nulls = ", ".join(["NULL"] * (self.seat_width + len(self.user.names)))
            match_nulls = ", ".join(["NULL"] * self.match_width)
            number = self.match_width + self.seat.names.index("number") + 1

            def apart(locked: bool) -> str:
                skip = " SKIP LOCKED" if self.skips else ""
                lock_match = f" FOR UPDATE{skip}" if locked else ""
                lock_seats = f" FOR UPDATE OF s{skip}" if locked else ""
                return (
                    f"WITH m AS (SELECT {self.match.select} FROM {match_table} m"
                    f" WHERE m.{match_id} = %s{lock_match}),"
                    f" s AS (SELECT {self.seat.select}, {self.user.select} FROM {seat_table} s"
                    f" LEFT JOIN {user_table} u ON u.{user_id} = s.{seat_user}"
                    f" WHERE s.{seat_match} = (SELECT {match_id} FROM m){lock_seats})"
                    f" SELECT m.*, {seat_nulls} FROM m UNION ALL SELECT {match_nulls}, s.* FROM s"
                    f" ORDER BY {number} NULLS FIRST"
                )

            # Locked as the joined statement locked them: the seats only with
            # the match row, skipping rows another transaction holds.
            self.both = apart(locked=False)
            self.both_locked = apart(locked=True)
        elif self.locks:
            self.both_locked = (
                self.both + " FOR UPDATE OF m, s" + (" SKIP LOCKED" if self.skips else "")
            )
        else:
            self.both_locked = self.both
        # PostgreSQL: the values go apart from the statement, which the
        # server keeps prepared for the connection (parsed and planned once,
        # not at every turn), and the driver sends them as they are instead
        # of quoting each into the statement's text.
        self.kept_cursor = _prepared_cursor_maker() if connection.vendor == "postgresql" else None
        event_fields = [f for f in Event._meta.concrete_fields if not f.primary_key]
        self.event_fields = event_fields
        self.event_head = (
            f"INSERT INTO {quote(Event._meta.db_table)}"
            f" ({', '.join(quote(f.column) for f in event_fields)})"
        )
        self.event_values = f"({', '.join('%s' for _ in event_fields)})"
        self.insert_event = f"{self.event_head} VALUES {self.event_values}"
        self.match_table = match_table
        self.match_fields = {field.name: field for field in Match._meta.concrete_fields}
        # Data-modifying WITH clauses: PostgreSQL's, not SQLite's.
        self.combines = connection.vendor == "postgresql"
        self.combined: dict[tuple[int, tuple[str, ...], str], str] = {}

    def update_sql(self, names: Iterable[str]) -> str:
        """The UPDATE of the match's fields ``names`` (their values, then the match's id)."""
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(self.match_fields[name].column)} = %s" for name in names)
        return f"UPDATE {self.match_table} SET {assignments} WHERE {self.match_id} = %s"

    def combined_sql(self, events: int, names: tuple[str, ...], last: str) -> str:
        """``last`` (a statement, or "" for none) behind WITH clauses inserting ``events``
        events and updating the match's fields ``names``; written once per shape."""
        key = (events, names, last)
        sql = self.combined.get(key)
        if sql is None:
            parts = []
            if events:
                values = ", ".join([self.event_values] * events)
                parts.append(f"{self.event_head} VALUES {values}")
            if names:
                parts.append(self.update_sql(names))
            if last:
                parts.append(last)
            *clauses, final = parts
            sql = ", ".join(f"w{n} AS ({clause})" for n, clause in enumerate(clauses))
            sql = f"WITH {sql} {final}" if clauses else final
            self.combined[key] = sql
        return sql

    def seat_of(
        self, row: Sequence[Any], start: int, match: Match, db: BaseDatabaseWrapper | None = None
    ) -> Seat:
        """The seat (with its player, and ``match``) in ``row`` from column ``start`` on."""
        end = start + self.seat_width
        seat = self.seat.build(row[start:end], db)
        assert isinstance(seat, Seat)
        user = None if row[end + self.user_pk] is None else self.user.build(row[end:], db)
        Seat.user.field.set_cached_value(seat, user)
        Seat.match.field.set_cached_value(seat, match)
        return seat


# Where a PostgreSQL connection keeps the cursor of the statements written here.
KEPT_CURSOR = "_rows_cursor"


def _prepared_cursor_maker() -> Callable[[BaseDatabaseWrapper], Any]:
    """How to get the PostgreSQL cursor that binds values server-side and prepares
    every statement it runs (once per connection: psycopg keeps them), set up as
    Django sets up its own cursors.

    One cursor is kept for each connection and used again: making one (its
    adaptation context, the time zone check, the wrapping) cost about as
    much as running a statement, and a kept one remembers how it adapted
    each type.
    """
    from django.db.backends.postgresql.base import (  # type: ignore[attr-defined]
        ServerBindingCursor,
    )
    from django.db.backends.postgresql.psycopg_any import (  # type: ignore[import-untyped]
        register_tzloader,
    )
    from psycopg import adapters, pq

    timestamptz = adapters.types["timestamptz"].oid

    class PreparedCursor(ServerBindingCursor):
        def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
            options.setdefault("prepare", True)
            return super().execute(query, params, **options)

        def _convert_query(self, query: Any, params: Any = None) -> Any:
            # Kept for Django's record of the statement run (query logging, the
            # tests' captured queries): psycopg keeps it only for statements
            # it does not prepare.
            converted = super()._convert_query(query, params)
            self._query = converted
            return converted

        def close(self) -> None:
            # Django's wrapper closes its cursor after each use; this one
            # stays open, with its connection, for the next statement.
            pass

    def kept(db: BaseDatabaseWrapper) -> Any:
        raw = db.connection
        cursor = getattr(raw, KEPT_CURSOR, None)
        if cursor is None:
            cursor = PreparedCursor(raw)
            # The connection's time zone, unless its loader has it already.
            if db.timezone != raw.adapters.get_loader(timestamptz, pq.Format.TEXT).timezone:
                register_tzloader(db.timezone, cursor)
            setattr(raw, KEPT_CURSOR, cursor)
        return cursor

    return kept


def cursor() -> Any:
    """A cursor for a statement written once and run at every turn: on PostgreSQL
    its values are bound server-side and the statement prepared for the connection."""
    return _cursor(_for_connection())


def _cursor(statements: _Statements) -> Any:
    """A cursor for the statements written here, wrapped as ``connection.cursor()``
    wraps its own (query logging and execute wrappers see what it runs)."""
    if statements.kept_cursor is None:
        return connection.cursor()
    db = connections[DEFAULT_DB_ALIAS]
    db.close_if_health_check_failed()
    db.ensure_connection()
    with db.wrap_database_errors:
        return db._prepare_cursor(statements.kept_cursor(db))  # type: ignore[attr-defined]


Written = TypeVar("Written")


class PerVendor(Generic[Written]):
    """Statements written once per database vendor in this process, on first use
    (a process talks to one database, but the tests switch between two)."""

    def __init__(self, write: Callable[[], Written]) -> None:
        self.write = write
        self.written: dict[str, Written] = {}

    def __call__(self) -> Written:
        statements = self.written.get(connection.vendor)
        if statements is None:
            statements = self.written[connection.vendor] = self.write()
        return statements


_for_connection = PerVendor(_Statements)


def lock(match_id: int) -> Match | None:
    """The match row, locked until the transaction ends (waiting for another holder);
    None when there is no such match."""
    statements = _for_connection()
    with _cursor(statements) as cursor:
        cursor.execute(statements.lock_locked, [match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    match = statements.match.build(row)
    assert isinstance(match, Match)
    return match


def seats(match: Match) -> dict[int, Seat]:
    """The match's seats by number, with their players."""
    statements = _for_connection()
    with _cursor(statements) as cursor:
        cursor.execute(statements.seats, [match.pk])
        rows = cursor.fetchall()
    return {seat.number: seat for seat in (statements.seat_of(row, 0, match) for row in rows)}


def lock_with_seats(match_id: int) -> tuple[Match, dict[int, Seat]] | None:
    """The match row and its seats (with their players), all locked until the
    transaction ends, in one statement; None when there is no such match or when
    another transaction holds any of those rows (PostgreSQL says so without waiting).

    For the workers' due turns: a row held is a match being moved (by another
    worker's turn, or a person's action), so a worker passes on to the next
    due match instead of queueing behind it; the match is still due at the
    next pass if it did not move.
    """
    statements = _for_connection()
    found = _match_and_seats(statements, statements.both_locked, match_id)
    if found is None or len(found[1]) < len(SEAT_NUMBERS):
        # A seat row held elsewhere was skipped: the match is being changed.
        return None
    return found


def match_with_seats(match_id: int) -> tuple[Match, dict[int, Seat]] | None:
    """The match row and its seats (with their players) as committed, in one statement,
    without locking anything; None when there is no such match."""
    statements = _for_connection()
    return _match_and_seats(statements, statements.both, match_id)


def _match_and_seats(
    statements: _Statements, sql: str, match_id: int
) -> tuple[Match, dict[int, Seat]] | None:
    """The match and its seats as ``sql`` (one of the statements ``both``) reads them."""
    with _cursor(statements) as cursor:
        cursor.execute(sql, [match_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    db = connections[DEFAULT_DB_ALIAS]
    width = statements.match_width
    match = statements.match.build(rows[0][:width], db)
    assert isinstance(match, Match)
    # Apart, the first row holds the match alone; joined, every row holds it.
    seat_rows = rows[1:] if statements.apart else rows
    return match, {
        seat.number: seat
        for seat in (statements.seat_of(row, width, match, db) for row in seat_rows)
    }


# Where a match instance holds its writes inside ``combined_writes``.
HELD = "_held_writes"


class EventRefused(IntegrityError):
    """A statement holding events failed a constraint: on a locked match, a twin's
    event numbered the same."""


@dataclasses.dataclass
class _Held:
    """The writes of one match waiting to go in one statement."""

    events: list[list[Any]] = dataclasses.field(default_factory=list)
    update: dict[str, Any] = dataclasses.field(default_factory=dict)


@contextlib.contextmanager
def combined_writes(match: Match) -> Iterator[None]:
    """Hold the events appended to ``match`` and its updates inside the block, where
    the database takes them in one statement (PostgreSQL), until ``write_held``, or
    the end of the block. Elsewhere, or nested, each is written at once.

    Only within the transaction that locked the match: a block left by an
    exception drops what it holds, for the exception rolls that back too.
    Raises EventRefused (at its end) for an event numbered as one stored.
    """
    if not _for_connection().combines or HELD in match.__dict__:
        yield
        return
    match.__dict__[HELD] = _Held()
    try:
        yield
    except BaseException:
        match.__dict__.pop(HELD, None)
        raise
    write_held(match)
    match.__dict__.pop(HELD, None)


def holds(match: Match) -> bool:
    """Whether ``match``'s writes are held (``combined_writes``)."""
    return HELD in match.__dict__


def write_held(match: Match, last: str = "", params: Sequence[Any] = ()) -> Any:
    """Write what ``match`` holds, then the statement ``last`` with ``params``, in
    one statement; returns the first value of the row ``last`` returns (None for
    none). Without anything held, ``last`` runs alone.

    Raises EventRefused when events were held and a constraint refused the
    statement (DatabaseError otherwise).
    """
    held: _Held | None = match.__dict__.get(HELD)
    events = held.events if held is not None else []
    update = held.update if held is not None else {}
    if not events and not update and not last:
        return None
    statements = _for_connection()
    names = tuple(update)
    sql = statements.combined_sql(len(events), names, last)
    values: list[Any] = [value for row in events for value in row]
    if names:
        values += [*update.values(), match.pk]
    values += params
    if held is not None:
        match.__dict__[HELD] = _Held()
    try:
        with _cursor(statements) as cursor:
            cursor.execute(sql, values)
            row = cursor.fetchone() if last else None
    except IntegrityError as error:
        if events:
            raise EventRefused(*error.args) from error
        raise
    return None if row is None else row[0]


def insert_sql(model: type[Model], names: Sequence[str], returning: bool = False) -> str:
    """The INSERT of one ``model`` row's fields ``names`` (values in that order),
    returning its key when ``returning`` (where the database can)."""
    quote = connection.ops.quote_name
    columns = {field.name: field.column for field in model._meta.concrete_fields}
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)}"
        f" ({', '.join(quote(columns[name]) for name in names)})"
        f" VALUES ({', '.join('%s' for _ in names)})"
    )
    if returning:
        key = model._meta.pk
        assert key is not None
        sql += f" RETURNING {quote(key.column)}"
    return sql


def prepared_values(instance: Model, names: Sequence[str]) -> list[Any]:
    """The values of ``instance``'s fields ``names`` as the database takes them."""
    db = connections[DEFAULT_DB_ALIAS]
    return [_prepared(instance._meta.get_field(name), instance, db) for name in names]


def insert_event(
    match: Match,
    kind: str,
    payload: dict[str, Any],
    actor_seat: int | None,
    auto: bool,
    stand_in: bool = False,
) -> None:
    """Insert the event numbered ``match.seq`` (or hold it, ``combined_writes``); the
    unique (match, seq) refuses a twin (IntegrityError)."""
    statements = _for_connection()
    given = {
        "match_id": match.pk,
        "seq": match.seq,
        "kind": kind,
        "payload": payload,
        "actor_seat": actor_seat,
        "auto": auto,
        "stand_in": stand_in,
    }
    # As an Event instance would give them, the others' defaults included,
    # without building one; with the connection itself rather than the proxy
    # that looks it up at every use.
    db = connections[DEFAULT_DB_ALIAS]
    values = [
        field.get_db_prep_save(
            given[field.attname] if field.attname in given else field.get_default(), db
        )
        for field in statements.event_fields
    ]
    held: _Held | None = match.__dict__.get(HELD)
    if held is not None:
        held.events.append(values)
        return
    with _cursor(statements) as cursor:
        cursor.execute(statements.insert_event, values)


def update_match(match: Match, names: Iterable[str]) -> None:
    """Write ``match``'s fields ``names`` (as ``save(update_fields=...)`` would), or
    hold them (``combined_writes``), with the values they have now."""
    statements = _for_connection()
    names = list(names)
    db = connections[DEFAULT_DB_ALIAS]
    values = [_prepared(statements.match_fields[name], match, db) for name in names]
    held: _Held | None = match.__dict__.get(HELD)
    if held is not None:
        held.update.update(zip(names, values, strict=True))
        return
    with _cursor(statements) as cursor:
        cursor.execute(statements.update_sql(names), [*values, match.pk])


def column_reader(model: type[Model], name: str) -> Callable[[Any], Any]:
    """How to read field ``name`` of ``model`` as the database sends it in a
    hand-written statement (a SQLite date, say, comes as text)."""
    column = model._meta.get_field(name).get_col(model._meta.db_table)  # type: ignore[union-attr]
    converters = [
        *connection.ops.get_db_converters(column),
        *column.get_db_converters(connection),
    ]

    def read(value: Any) -> Any:
        for convert in converters:
            value = convert(value, None, connection)
        return value

    return read


def _prepared(field: Any, instance: Model, db: BaseDatabaseWrapper) -> Any:
    """The value of ``field`` on ``instance`` as the database takes it."""
    assert isinstance(field, Field)
    return field.get_db_prep_save(field.pre_save(instance, add=False), db)
