"""Turns whose deadline has passed: bots move, and timers force the late.

``advance_due`` is what the worker (``manage.py run_worker``) calls in a
loop. For each playing match whose stored deadline is past, it plays one
action through ``services.submit_as_seat``, the path people's actions take:
the bot's choice for a bot or an away seat, the engine's forced action
(rules D17, recorded ``auto``) for a person who ran out of time. A person
who runs out of time ``MISSED_TURNS_BEFORE_AWAY`` times in a row is marked
away and played by the bot until they come back.

Every action is recorded against the event number it was chosen at, under
the match row's lock, and the unique (match, seq) constraint refuses a
second one: however many workers run, each due turn is played once, and a
worker that loses a race does nothing. Nothing is kept in memory, so a
restarted worker carries on from the database alone.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import rules
from games.bots import choose_action
from games.match import services
from games.match.deadlines import MISSED_TURNS_BEFORE_AWAY
from games.match.errors import DuplicateAction, ServiceError, StaleSequence
from games.match.event_log import LogError, load_state
from games.match.models import Match, Seat

logger = logging.getLogger(__name__)

# How many due matches one call looks at, most overdue first; the rest wait
# for the next call, so one call never holds the worker for long.
BATCH = 200
# How long a match whose turn cannot be played waits before the next try.
BROKEN_RETRY = timedelta(minutes=1)


def advance_due(now: datetime | None = None, *, limit: int = BATCH) -> int:
    """Play one action in every playing match whose deadline is at or before ``now``.

    Returns how many actions were recorded (a match another worker moved
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
            if play_due_turn(match_id, seq, now) is not None:
                played += 1
        except (ServiceError, LogError):
            # One broken match must not stop the others, nor fill the log:
            # it is tried again once a minute until someone repairs it.
            logger.exception("match %s: the due turn could not be played", match_id)
            Match.objects.filter(pk=match_id, seq=seq).update(deadline=now + BROKEN_RETRY)
    return played


def play_due_turn(match_id: int, seen_seq: int, now: datetime) -> services.Outcome | None:
    """Play the due turn of a match last seen at event ``seen_seq``; None if it is not due.

    Raises LogError for a log that does not replay, ServiceError if the
    action is refused for any reason but a lost race, DatabaseError when the
    database fails.
    """
    try:
        with transaction.atomic():
            # Lock the match first, as every service does, so seat updates
            # below never wait on a lock held by someone waiting for ours.
            match = Match.objects.select_for_update().get(pk=match_id)
            if (
                match.status != Match.Status.PLAYING
                or match.seq != seen_seq
                or (match.deadline is not None and match.deadline > now)
            ):
                return None
            state = load_state(match)
            if state.phase is rules.Phase.ROUND_OVER:
                outcome = services.deal_next(match, seen_seq)
                logger.info("match %s event %s: the next deal is dealt", match_id, seen_seq + 1)
                return outcome
            if state.turn is None:
                return None
            seat = Seat.objects.get(match=match, number=state.turn)
            action, auto = _action_for(seat, state)
            outcome = services.submit_as_seat(match, seat.number, action, seen_seq, auto=auto)
    except (StaleSequence, DuplicateAction):
        # Another worker recorded this turn first: nothing left to do.
        return None
    except Match.DoesNotExist:
        return None
    # The action's own number: a deal may have followed it.
    _log(match_id, seen_seq + 1, seat, action, auto)
    return outcome


def _action_for(seat: Seat, state: rules.State) -> tuple[dict[str, Any], bool]:
    """What the seat to act does now, and whether it is timer-forced.

    A person's forced action counts as a missed turn; the seat row is
    updated here, inside the caller's transaction, so that the deadline the
    recorded action sets already knows whether the seat is now away.
    """
    if seat.is_bot or seat.away:
        return choose_action(state, seat.number), False
    seat.missed_turns += 1
    if seat.missed_turns >= MISSED_TURNS_BEFORE_AWAY:
        seat.away = True
    seat.save(update_fields=["missed_turns", "away"])
    return rules.forced_action(state), True


def _log(match_id: int, seq: int, seat: Seat, action: dict[str, Any], auto: bool) -> None:
    """One line per recorded action: who acted and the verb, never a card."""
    verb = next(k for k in action if k not in ("seat", "auto", "at"))
    if not auto:
        who = "bot" if seat.is_bot else "bot for away player"
        logger.info("match %s event %s: %s in seat %s: %s", match_id, seq, who, seat.number, verb)
        return
    logger.info(
        "match %s event %s: seat %s timed out (%s of %s in a row): forced %s%s",
        match_id,
        seq,
        seat.number,
        seat.missed_turns,
        MISSED_TURNS_BEFORE_AWAY,
        verb,
        "; the seat is now played by the bot" if seat.away else "",
    )
