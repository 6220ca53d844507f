"""Which matches are rated: the policy the ratings page states, decided once as a match starts.

A match is rated when, as it starts:

1. four people sit at it: no bot, and it is not a quick match filled with
   bots (``Match.unrated`` set by whoever opened it);
2. it is public: a private table is never rated;
3. the site chose who sits where (``Match.seats_assigned``): a quick match,
   or a table opened in the lobby as rated, whose seats are drawn at the
   start, so nobody picks their partner;
4. the same four people started no rated match together in the last
   ``RATED_REPEAT_HOURS`` hours: no rated rematch of one line-up;
5. no two of them (partners or opponents) started ``RATED_PAIR_DAILY_LIMIT``
   rated matches together in the last 24 hours.

It must then end with a winner (``recording.is_rated``). The first reason
that applies is stored on the match (``unrated``, ``unrated_reason``), so the
table says so from the first deal and the rebuild reads the decision back
instead of taking it again on a history that has moved on. A match started
and later stopped by staff counts in 4 and 5 like any other: stopping a
match does not give its line-up another try.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime, timedelta
from itertools import combinations

from django.conf import settings
from django.utils import timezone

from games.match.models import Match, Seat

DAY = timedelta(hours=24)


def repeat_hours() -> int:
    """Hours before the same four people may play a rated match together again."""
    return int(settings.RATED_REPEAT_HOURS)


def pair_daily_limit() -> int:
    """Rated matches any two players may start together in 24 hours."""
    return int(settings.RATED_PAIR_DAILY_LIMIT)


def match_started(match: Match, seats: dict[int, Seat]) -> None:
    """Decide whether ``match``, starting now with ``seats``, is rated, and record why not."""
    reason = unrated_reason(match, seats)
    if reason:
        match.unrated = True
        match.unrated_reason = reason
        match.save(update_fields=["unrated", "unrated_reason"])


def unrated_reason(match: Match, seats: dict[int, Seat]) -> str:
    """Why ``match`` (starting with ``seats``) is not rated; empty when it is."""
    Reason = Match.UnratedReason
    if match.unrated or any(seat.user_id is None for seat in seats.values()):
        return Reason.BOTS
    if match.is_private:
        return Reason.PRIVATE
    if not match.seats_assigned:
        return Reason.CHOSEN_SEATS
    people = frozenset(seat.user_id for seat in seats.values() if seat.user_id is not None)
    now = match.started_at or timezone.now()
    since = now - max(DAY, timedelta(hours=repeat_hours()))
    earlier: dict[int, set[int]] = defaultdict(set)
    started: dict[int, datetime] = {}
    rows = Seat.objects.filter(
        user_id__in=people,
        match__unrated=False,
        match__imported=False,
        match__started_at__gte=since,
        match__status__in=(Match.Status.PLAYING, Match.Status.FINISHED, Match.Status.ABORTED),
    ).exclude(match=match)
    for match_id, user_id, at in rows.values_list("match_id", "user_id", "match__started_at"):
        if at is not None:  # Always set on a started match.
            earlier[match_id].add(user_id)
            started[match_id] = at
    repeat_since = now - timedelta(hours=repeat_hours())
    if any(met == people and started[m] >= repeat_since for m, met in earlier.items()):
        return Reason.SAME_FOUR
    day_since = now - DAY
    pairs: Counter[tuple[int, int]] = Counter()
    for m, met in earlier.items():
        if started[m] >= day_since:
            pairs.update(combinations(sorted(met), 2))
    if any(count >= pair_daily_limit() for count in pairs.values()):
        return Reason.DAILY_LIMIT
    return ""
