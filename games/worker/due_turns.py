"""Turns whose deadline has passed: bots move, timers force the late, the next deal is dealt.

``advance_due`` is what the worker (``manage.py run_worker``) calls in a
loop. It lists the playing matches whose stored deadline is past and has
``services.play_due_turn`` play one turn in each: the services decide what
is played and record it, the path people's actions take, so nothing here
writes to the database but through them.

Every action is recorded against the event number it was chosen at, under
the match row's lock, and the unique (match, seq) constraint refuses a
second one: however many workers run, each due turn is played once, and a
worker that loses a race does nothing. Nothing is kept in memory, so a
restarted worker carries on from the database alone.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db.models import F, Q
from django.utils import timezone

from games.match import services
from games.match.deadlines import MISSED_TURNS_BEFORE_AWAY
from games.match.errors import ServiceError
from games.match.event_log import LogError
from games.match.models import Event, Match

logger = logging.getLogger(__name__)

# How many due matches one call looks at, most overdue first; the rest wait
# for the next call, so one call never holds the worker for long.
BATCH = 200
# How long a match whose turn cannot be played waits before the next try.
BROKEN_RETRY = timedelta(minutes=1)


def advance_due(now: datetime | None = None, *, limit: int = BATCH) -> int:
    """Play one turn in every playing match whose deadline is at or before ``now``.

    Returns how many turns were recorded (a match another worker moved
    first is skipped). Raises DatabaseError when the database fails.
    """
    now = now or timezone.now()
    # A running match without a deadline (one started before deadlines were
    # stored) is due at once rather than stalled for ever.
    due = list(
        Match.objects.filter(status=Match.Status.PLAYING)
        .filter(Q(deadline__lte=now) | Q(deadline__isnull=True))
        .order_by(F("deadline").asc(nulls_first=True), "pk")
        .values_list("pk", "seq")[:limit]
    )
    played = 0
    for match_id, seq in due:
        try:
            turn = services.play_due_turn(match_id, seen_seq=seq, now=now)
        except (ServiceError, LogError):
            # One broken match must not stop the others, nor fill the log:
            # it is tried again once a minute until someone repairs it.
            logger.exception("match %s: the due turn could not be played", match_id)
            services.put_off_due_turn(match_id, seq, now + BROKEN_RETRY)
            continue
        if turn is not None:
            played += 1
            # The turn's own number: a deal may have followed an action.
            _log(match_id, seq + 1, turn)
            _log_declared_for(match_id, seq + 1, turn.outcome.match.seq)
    return played


def _log_declared_for(match_id: int, after: int, last: int) -> None:
    """One line per "no projects" recorded with the turn for a seat that has none.

    Those declarations are appended in the same call as the turn that led
    to them, so without these lines the log would miss events that a worker
    recorded.
    """
    if last <= after:
        return
    chained = Event.objects.filter(
        match_id=match_id, seq__gt=after, seq__lte=last, kind=Event.Kind.ACTION
    ).values_list("seq", "actor_seat")
    for seq, seat in chained:
        logger.info("match %s event %s: no projects to declare in seat %s", match_id, seq, seat)


def next_deadline() -> datetime | None:
    """When the next turn of a running match falls due; None when no match is running.

    A running match without a deadline is due now.
    """
    found = list(
        Match.objects.filter(status=Match.Status.PLAYING)
        .order_by(F("deadline").asc(nulls_first=True))
        .values_list("deadline", flat=True)[:1]
    )
    if not found:
        return None
    return found[0] or timezone.now()


def _log(match_id: int, seq: int, turn: services.DueTurn) -> None:
    """One line per recorded turn: who acted and the kind of action, never a card."""
    if turn.seat is None:
        logger.info("match %s event %s: the next deal is dealt", match_id, seq)
    elif not turn.auto:
        who = "bot" if turn.is_bot else "bot for away player"
        logger.info(
            "match %s event %s: %s in seat %s: %s", match_id, seq, who, turn.seat, turn.verb
        )
    else:
        logger.info(
            "match %s event %s: seat %s timed out (%s of %s in a row): forced %s%s",
            match_id,
            seq,
            turn.seat,
            turn.missed_turns,
            MISSED_TURNS_BEFORE_AWAY,
            turn.verb,
            "; the seat is now played by the bot" if turn.away else "",
        )
