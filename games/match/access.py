"""Who may see a match, join its table, run it and act at it: the one place that decides.

- **See** (the table, the match page, its replays and notation): anyone for
  a public match; for a private one its creator, its seated players, staff,
  and whoever brings its invite token.
- **Join** (take a free seat): anyone at a public table; at a private one
  its creator and whoever brings the invite token.
- **Run** (add or remove bots, start): the table's creator while they sit
  at it; once the creator has left it, its seated players. Anyone else
  seated could otherwise fill a stranger's table with bots and start it.
- **Host** (remove a player from a seat before the start): the creator.
- **Act**: only for the seat one holds (``own_seat``).
- **Play on**: a person seated at a running match, stepped away or not, is
  seated at no other by quick match or a rematch (``running_match_of``): one
  account cannot keep many tables busy at once.

An invite token works for ``INVITE_MAX_AGE_SECONDS`` after it was issued,
and not at all once the creator turned the link off; a match still being
imported is seen by nobody.

Nothing here raises: the services turn a "no" into their typed refusals and
the pages into a 404.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games.match.models import Match, Seat


def seat_of(seats: Iterable[Seat], user: Any) -> Seat | None:
    """The seat ``user`` holds among ``seats`` (a match's seats), if any."""
    pk = getattr(user, "pk", None)
    return next((seat for seat in seats if pk is not None and seat.user_id == pk), None)


def own_seat(match: Match, user: Any) -> Seat | None:
    """The seat ``user`` holds in ``match``, read from the database; the only seat they act for."""
    return Seat.objects.filter(match=match, user=user).first()


def running_match_of(user: Any) -> Match | None:
    """The running match ``user`` holds a seat at (the latest started), if any."""
    pk = getattr(user, "pk", None)
    if pk is None:
        return None
    return (
        Match.objects.filter(status=Match.Status.PLAYING, seats__user_id=pk)
        .order_by("-started_at", "-id")
        .first()
    )


def is_member(match: Match, seats: Iterable[Seat], user: Any) -> bool:
    """True when ``user`` created the table or sits at it."""
    pk = getattr(user, "pk", None)
    return (pk is not None and match.creator_id == pk) or seat_of(seats, user) is not None


def may_run(match: Match, seats: Iterable[Seat], user: Any) -> bool:
    """True when ``user`` may add or remove bots and start: the seated creator, else the seated."""
    seats = list(seats)
    pk = getattr(user, "pk", None)
    if pk is None:
        return False
    if match.creator_id == pk:
        return True
    creator_seated = any(seat.user_id == match.creator_id for seat in seats)
    return not creator_seated and seat_of(seats, user) is not None


def is_host(match: Match, user: Any) -> bool:
    """True when ``user`` opened the table: only they may remove a player before the start."""
    pk = getattr(user, "pk", None)
    return pk is not None and match.creator_id == pk


def invite_expiry(match: Match) -> datetime | None:
    """When ``match``'s invite link stops working; None when it is off."""
    issued = match.invite_issued_at
    if issued is None:
        return None
    return issued + timedelta(seconds=settings.INVITE_MAX_AGE_SECONDS)


def invite_live(match: Match) -> bool:
    """True when ``match``'s invite link is on and has not expired."""
    expiry = invite_expiry(match)
    return expiry is not None and timezone.now() < expiry


def invite_matches(match: Match, invite: str) -> bool:
    """True when ``invite`` is ``match``'s live invite token (compared in constant time).

    Compared as UTF-8 bytes: ``secrets.compare_digest`` refuses text that is not
    ASCII with a TypeError, which would have answered a page with a 500 for a
    table whose link is live and a 404 for one whose link is off.
    """
    return (
        bool(invite)
        and invite_live(match)
        and secrets.compare_digest(
            invite.encode("utf-8", "surrogatepass"), match.invite_token.encode()
        )
    )


def may_see(match: Match, user: Any, seats: Iterable[Seat], invite: str = "") -> bool:
    """True when ``user`` may look at ``match``: public, or theirs, or staff, or invited."""
    if match.status == Match.Status.IMPORTING:
        return False
    if not match.is_private or getattr(user, "is_staff", False):
        return True
    return is_member(match, seats, user) or invite_matches(match, invite)


def seen_by(matches: QuerySet[Match], user: Any) -> QuerySet[Match]:
    """The matches of ``matches`` that ``user`` may see without an invite: ``may_see`` as a query.

    For lists (a player's profile) that must show no private match to
    anyone it is not theirs to see.
    """
    matches = matches.exclude(status=Match.Status.IMPORTING)
    if getattr(user, "is_staff", False):
        return matches
    pk = getattr(user, "pk", None)
    if pk is None:
        return matches.filter(is_private=False)
    seated = Seat.objects.filter(match=OuterRef("pk"), user_id=pk)
    return matches.filter(Q(is_private=False) | Q(creator_id=pk) | Exists(seated))


def may_join(match: Match, user: Any, invite: str = "") -> bool:
    """True when ``user`` may take a free seat: a public table, their own, or invited."""
    if not match.is_private:
        return True
    pk = getattr(user, "pk", None)
    return (pk is not None and match.creator_id == pk) or invite_matches(match, invite)


def chat_room(match: Match, seats: Iterable[Seat], user: Any, invite: str = "") -> str | None:
    """The table chat room ``user`` reads and writes at ``match``, or None.

    "players" for a person seated there, "spectators" for anyone else who may
    see the match; neither room reads the other's.
    """
    if not getattr(user, "is_authenticated", False):
        return None
    seats = list(seats)
    if seat_of(seats, user) is not None:
        return "players"
    if may_see(match, user, seats, invite):
        return "spectators"
    return None
