"""What the live table shows one user: the reading of a match and the template context.

Views and the WebSocket consumer both draw from here (through
``games.table.live``, which renders the context as parts), so a seat gets
the same HTML whichever way it asks. What a user sees is decided by
``rules.view_for`` for their own seat (or ``None`` for a spectator);
everything else added here is public: who sits where, the table's
settings, and the event number the picture belongs to.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language

from games import rules
from games.display.fields import Fields
from games.match import rows, steps
from games.match.access import (
    invite_expiry,
    invite_live,
    is_host,
    is_member,
    may_join,
    may_run,
    seat_of,
)
from games.match.deadlines import seconds_to_act
from games.match.event_log import LogError, apply_recorded, fold, load_state
from games.match.models import BotLevel, Event, Match, Seat
from games.match.steps import Step
from games.table import kept
from games.table.kept import Kept
from games.table.picture import SeatInfo, Shared, Table, build_table

logger = logging.getLogger(__name__)

TEMPLATE = "games/table.html"
# Loading reads the match row and then its events; a commit in between would
# pair a state with the wrong event number, so the read is retried.
CONSISTENT_READ_ATTEMPTS = 5


@dataclass(frozen=True)
class WaitingSeat:
    """A chair of a table that has not started yet."""

    number: int
    team: str
    name: str
    is_bot: bool
    is_empty: bool
    is_me: bool
    partner: int


@dataclass(frozen=True)
class MatchReading:
    """A match, its engine state and its seats, read at one event number."""

    match: Match
    state: rules.State
    seats: dict[int, Seat]
    # False when the match moved on while being read, so that the state may
    # be ahead of its number: no later reading may build on it.
    consistent: bool = True
    # What every picture of this reading shares, by language (``table_for``):
    # made by the first picture drawn, gone with the reading.
    shared: dict[str | None, Shared] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    @property
    def seq(self) -> int:
        """The event number the state belongs to."""
        return self.match.seq


def read_match(match_id: int, since: MatchReading | None = None) -> MatchReading:
    """The match's state together with the event number it belongs to.

    The match row comes with its seats (one query), then the state (two).
    With ``since``, an earlier consistent reading of the same match, the
    state is that one's with the events after it applied: one query for
    those events instead of the snapshots and the whole deal's events, and
    no snapshot to decode. Raises Match.DoesNotExist.
    """
    for _attempt in range(CONSISTENT_READ_ATTEMPTS):
        match, seats = _match_and_seats(match_id)
        if since is not None and since.consistent and since.match.pk == match_id:
            built = _state_after(since, match)
            if built is not None:
                return MatchReading(match, built, seats)
        state = load_state(match)
        seq_after = Match.objects.filter(pk=match_id).values_list("seq", flat=True).get()
        if seq_after == match.seq:
            return MatchReading(match, state, seats)
    # A very busy table: the state may be a move ahead of its number,
    # which only makes the next action from this picture look stale.
    logger.info("match %s kept moving while being read", match_id)
    return MatchReading(match, state, seats, consistent=False)


def _match_and_seats(match_id: int) -> tuple[Match, dict[int, Seat]]:
    """The match row and its seats, in one statement written once per process
    (``games.match.rows``) rather than compiled by the ORM at every reading; raises
    Match.DoesNotExist."""
    found = rows.match_with_seats(match_id)
    if found is None or not found[1]:
        raise Match.DoesNotExist
    return found


def _state_after(since: MatchReading, match: Match) -> rules.State | None:
    """``since``'s state brought up to ``match``'s event number; None when it cannot be.

    The events up to the number the match row shows were committed with
    it or before, so reading them up to that number needs no second look
    at the row. A log that does not fit the earlier state (not ours to
    judge here) is left to the full reading.
    """
    if since.seq > match.seq or match.created_at != since.match.created_at:
        return None
    if since.seq == match.seq:
        return since.state
    events = Event.objects.filter(match=match, seq__gt=since.seq, seq__lte=match.seq)
    try:
        return fold(since.state, events.order_by("seq"))
    except LogError:
        return None


def advanced(reading: MatchReading, step: Step) -> MatchReading | None:
    """``reading`` brought forward by an announced ``step``; None when the step does not
    start from it, or its events do not fit (only the database can say then).

    The match row and the seats are the step's, as committed with its
    events; a seat whose values did not change is the reading's own, and a
    seat taken by someone the reading does not know needs the database for
    their name. A table that has not started is left to the database: the
    start sets what its first state is dealt from.
    """
    match = step.match
    earlier = reading.match
    if (
        not reading.consistent
        or reading.seq != step.base
        or match.pk != earlier.pk
        or match.created_at != earlier.created_at
        or earlier.status == Match.Status.WAITING
        or match.seq != step.base + len(step.events)
        or not steps.complete(match, earlier)
    ):
        return None
    state = reading.state
    try:
        for seq, kind, version, payload in step.events:
            state = apply_recorded(state, seq, kind, payload, version)
    except LogError:
        return None
    seats: dict[int, Seat] = {}
    for values in step.seats:
        seat = _seat_after(reading.seats, values, match)
        if seat is None:
            return None
        seats[seat.number] = seat
    if seats.keys() != reading.seats.keys():
        return None
    return MatchReading(match, state, seats)


def _seat_after(seats: dict[int, Seat], values: tuple[Any, ...], match: Match) -> Seat | None:
    """The seat stored as ``values``, made from ``seats`` (a reading's); None when its
    occupant is someone those seats do not show."""
    earlier = seats.get(values[steps.SEAT_NUMBER])
    if earlier is not None and steps.seat_values(earlier) == values:
        return earlier
    user_id = values[steps.SEAT_USER]
    if user_id is not None and (earlier is None or earlier.user_id != user_id):
        return None
    seat = steps.seat_from(values)
    Seat.user.field.set_cached_value(seat, earlier.user if earlier and user_id else None)
    Seat.match.field.set_cached_value(seat, match)
    return seat


def reading_of(outcome: Any) -> MatchReading:
    """The reading a service's outcome gives, when it carries the seats; raises ValueError."""
    if outcome.seats is None:
        raise ValueError("an outcome without its seats")
    return MatchReading(outcome.match, outcome.state, outcome.seats)


def seat_name(seat: Seat) -> str:
    """How a seat is called at the table: its player, or its bot's name (one per seat)."""
    return seat.occupant_label


def table_for(reading: MatchReading, user: Any) -> Table:
    """The printable table for ``user``: their seat's view, or a spectator's."""
    mine = seat_of(reading.seats.values(), user)
    state = reading.state
    shared = None
    public = None
    if kept.enabled():
        # A reading never changes: what its views have in common is made once.
        shared = reading.shared.setdefault(get_language(), {})
        public = shared.get("view")
        if public is None:
            public = shared.setdefault("view", rules.view_for(state, None))
    view = rules.view_for(state, mine.number if mine else None, public=public)
    seats = shared.get("seats") if shared is not None else None
    if seats is None:
        seats = {
            n: SeatInfo(seat_name(seat), is_bot=seat.is_bot, away=seat.away)
            for n, seat in reading.seats.items()
        }
        if shared is not None:
            shared["seats"] = seats
    turn = reading.seats.get(state.turn) if state.turn else None
    return build_table(
        view,
        seats,
        seq=reading.seq,
        deadline=_countdown(reading),
        now=timezone.now(),
        turn_seconds=seconds_to_act(reading.match, reading.state, turn) if turn else None,
        shared=shared,
        results_shown=_results_shown(state, view) if shared is not None else None,
    )


# The finished deals of a state in words (``repr`` of a view's ``results``), by
# the engine's tuple of them, which a state hands on to the states after it
# until a deal ends: worked out once a deal rather than once a reading, as
# the deals pile up. Kept by the tuple's identity, the tuple held meanwhile.
RESULTS_KEPT = 1024
_results: Kept[tuple[Any, str]] = Kept(RESULTS_KEPT)


def _results_shown(state: rules.State, view: dict[str, Any]) -> str:
    """``repr(view["results"])`` for ``view``, a view of ``state``."""
    finished = state.results
    held, shown = _results.get_or_make(id(finished), lambda: (finished, repr(view["results"])))
    return shown if held is finished else repr(view["results"])


def _countdown(reading: MatchReading) -> Any:
    """The deadline of the person to act, if the table keeps one.

    A bot, or a seat played by a bot while its player is away, acts after a
    short delay rather than at a deadline worth watching, so it gets none.
    """
    turn = reading.state.turn
    seat = reading.seats.get(turn) if turn else None
    if seat is None or seat.is_bot or seat.away:
        return None
    return getattr(reading.match, "deadline", None)


def waiting_room(reading: MatchReading, user: Any) -> list[WaitingSeat]:
    """The four chairs of a table waiting for players."""
    mine = seat_of(reading.seats.values(), user)
    return [
        WaitingSeat(
            number=n,
            team="A" if n % 2 else "B",
            name=seat_name(seat) if not seat.is_empty else "",
            is_bot=seat.is_bot,
            is_empty=seat.is_empty,
            is_me=mine is not None and mine.number == n,
            partner=(n + 1) % 4 + 1,
        )
        for n, seat in sorted(reading.seats.items())
    ]


def table_context(reading: MatchReading, user: Any, *, invite: str = "") -> dict[str, Any]:
    """The template context of the table region's parts for ``user``."""
    match = reading.match
    mine = seat_of(reading.seats.values(), user)
    context: dict[str, Any] = {
        "match": match,
        "seq": reading.seq,
        "my_seat": mine,
        "urls": _urls(match.pk),
        "current_deal": current_deal(match),
    }
    # Who runs the table matters in the waiting room only, which every
    # picture of a running table would otherwise work out again.
    if match.status == Match.Status.WAITING:
        seats = waiting_room(reading, user)
        member = is_member(match, reading.seats.values(), user)
        shared = member and match.is_private
        context.update(
            member=member,
            # Who may add bots and start (the seated host), and remove a player (the host).
            may_run=may_run(match, reading.seats.values(), user),
            host=is_host(match, user),
            waiting=seats,
            full=all(not s.is_empty for s in seats),
            may_sit=mine is None and may_join(match, user, invite),
            invite_url=_invite_url(match) if shared and invite_live(match) else "",
            invite_until=invite_expiry(match) if shared else None,
            invite_off=shared and not invite_live(match),
            invite_op=reverse("play:invite", args=[match.pk]),
            bot_levels=BotLevel.choices,
        )
    elif reading.seq:
        context["t"] = table_for(reading, user)
    return context


@dataclass(frozen=True)
class CurrentDeal(Fields):
    """The deal being played at a table: its number and its commitment, never its seed."""

    number: int
    commitment: str


def current_deal(match: Match) -> CurrentDeal | None:
    """The deal in progress at a running table, from the match row alone; None otherwise."""
    if match.status != Match.Status.PLAYING or not match.deal_commitment:
        return None
    return CurrentDeal(match.deal_number, match.deal_commitment)


@lru_cache(maxsize=4096)
def _urls(match_id: int) -> dict[str, str]:
    """The addresses a table's parts link to (the same for every picture of the match)."""
    args = [match_id]
    return {
        "page": reverse("play:table", args=args),
        "act": reverse("play:act", args=args),
        "sit": reverse("play:sit", args=args),
        "leave": reverse("play:leave", args=args),
        "bot": reverse("play:bot", args=args),
        "remove_player": reverse("play:remove_player", args=args),
        "start": reverse("play:start", args=args),
        "back": reverse("play:back", args=args),
        "socket": f"/ws/match/{match_id}/",
        "history": reverse("games:detail", args=args),
        "lobby": reverse("play:lobby"),
    }


def _invite_url(match: Match) -> str:
    return f"{reverse('play:table', args=[match.pk])}?invite={match.invite_token}"
