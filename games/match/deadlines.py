"""How long the seat to act has: the stored deadline every event resets.

D17 gives every bidding, multiplier and declaration decision 8 seconds and
card play the table's own timer. A bot, or a seat whose player is away,
acts after the short ``BOT_DELAY_SECONDS`` instead, so people can follow.

The time depends on who sits in the seat, never on its cards. A hand with
no project is asked for its D18 declaration at its own turn, with the same
time as any other, and the timer declares nothing for it as for any other:
the site never records a declaration for a seat. Answering for such hands
at once would make the turn wait only on the seats that hold a project,
which every other seat and spectator would see in the turns, their timing
and the event numbers before any card of a project is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games import rules
from games.match.models import Match, Seat

# D17 (seeds: 8 s for bidding): every decision but card play.
DECISION_SECONDS = 8
# A seat that lets its timer run out this many times in a row is played by
# the bot until its player comes back.
MISSED_TURNS_BEFORE_AWAY = 3


def seconds_to_act(match: Match, state: rules.State, seat: Seat) -> float:
    """The time ``seat``, the seat to act in ``state``, has for its decision."""
    if seat.is_bot or seat.away:
        return float(settings.BOT_DELAY_SECONDS)
    if state.phase is rules.Phase.PLAYING:
        return float(match.play_timer)
    return float(DECISION_SECONDS)


def deadline_for(
    match: Match,
    state: rules.State,
    now: datetime | None = None,
    seats: Mapping[int, Seat] | None = None,
) -> datetime | None:
    """When the seat to act in ``state`` runs out of time from ``now``; None if nobody acts.

    ``seats`` (the match's, by number) saves reading the seat to act.
    """
    if state.phase is rules.Phase.ROUND_OVER:
        # The worker deals the next hand once everyone has seen the result.
        return (now or timezone.now()) + timedelta(seconds=settings.ROUND_PAUSE_SECONDS)
    if state.turn is None:
        return None
    seat = seats.get(state.turn) if seats is not None else None
    if seat is None:
        seat = Seat.objects.get(match=match, number=state.turn)
    return (now or timezone.now()) + timedelta(seconds=seconds_to_act(match, state, seat))
