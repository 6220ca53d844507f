"""Rematch: the four seats of a finished match play again when every person agrees.

Any person seated at a finished match may offer a rematch, which counts as
their own acceptance; the others accept with the same button. When every
person at the table has accepted, a new match starts with the same seats
(bots stay bots, a private table stays private with an invite link of its
own). Whether it is rated is the rating policy's call, as for any match
(``games.ratings.policy``): the same four just played, so a rematch is not.
An offer lapses ``OFFER_SECONDS`` after it was made; a new one may be made
afterwards.

To someone who may not see the match, a private match is as missing as a
match that does not exist: both are MatchNotFound.

A rematch is a new table like any other: a person seated at a running
match may not accept one (nor may it start while one of them is), and it
counts against the ``TABLES`` limit of every person seated there
(``games.match.limits``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.match import access, limits, services
from games.match.errors import (
    AlreadyPlaying,
    MatchNotFound,
    NotAllowed,
    ServiceError,
    TooManyTables,
)
from games.match.models import Match, Seat
from games.social.broadcast import announce_on_commit
from games.social.models import RematchOffer

OFFER_SECONDS = 60


class RematchRefused(ServiceError):
    code = "rematch_refused"
    default_message = _("A rematch can be offered only once the match is over.")


class PlayerBusy(RematchRefused):
    code = "rematch_player_busy"
    default_message = _(
        "%(name)s is playing another match now: the rematch can start once it is over."
    )


@dataclass(frozen=True)
class RematchState:
    """What the rematch panel shows to one viewer."""

    offer: RematchOffer | None
    is_player: bool
    accepted: list[str]
    waiting_for: list[str]
    i_accepted: bool
    lapsed: bool
    seconds_left: float
    started: bool
    # The new match, for those who may go to it.
    new_match: Match | None


def live_offer(match: Match, now: datetime | None = None) -> RematchOffer | None:
    """The match's latest offer if it still stands (or has already started a new match)."""
    now = now or timezone.now()
    offer = RematchOffer.objects.filter(match=match).order_by("-created_at", "-id").first()
    if offer is None:
        return None
    if offer.new_match_id is None and offer.expires_at <= now:
        return None
    return offer


def accept(user: Any, match_id: int, *, invite: str = "") -> RematchOffer:
    """Offer a rematch of ``match_id``, or accept the standing offer; start it once all agree.

    Raises NotAllowed (someone who may see the match but has no seat there),
    MatchNotFound (no such match, or one the user may not see with
    ``invite``), RematchRefused (the match is not finished), AlreadyPlaying
    (the user sits at a running match), PlayerBusy (another person does, so
    the rematch cannot start), TooManyTables.
    """
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Please log in first."))
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise MatchNotFound()
        seats = list(Seat.objects.filter(match=match).select_related("user"))
        if access.seat_of(seats, user) is None:
            if not access.may_see(match, user, seats, invite):
                raise MatchNotFound()
            raise NotAllowed()
        if match.status != Match.Status.FINISHED:
            raise RematchRefused()
        now = timezone.now()
        offer = live_offer(match, now)
        if offer is not None and offer.new_match_id is not None:
            return offer
        running = access.running_match_of(user)
        if running is not None:
            raise AlreadyPlaying(match=running.pk)
        if limits.exhausted(limits.TABLES, user.pk):
            raise TooManyTables()
        if offer is None:
            offer = RematchOffer.objects.create(
                match=match, created_at=now, expires_at=now + timedelta(seconds=OFFER_SECONDS)
            )
        if offer.new_match_id is not None:
            return offer
        agreed = set(offer.accepted.values_list("pk", flat=True))
        if user.pk in agreed:
            # Accepting twice changes nothing: the table's sockets hear nothing of it.
            return offer
        offer.accepted.add(user)
        agreed.add(user.pk)
        people = {seat.number: seat.user for seat in seats if seat.user is not None}
        if {person.pk for person in people.values()} <= agreed:
            for person in people.values():
                if access.running_match_of(person) is not None:
                    raise PlayerBusy(name=person.get_username())
            outcome = services.open_full_table(
                people,
                mode=match.mode,
                play_timer=match.play_timer,
                # A bot in the rematch plays as well as the one it replaces.
                bot_levels={seat.number: seat.bot_level for seat in seats if seat.is_bot},
                # A private table's rematch is private too, with a fresh invite
                # link that its creator hands out again if they wish.
                is_private=match.is_private,
                creator=match.creator,
                # The seats stay where they were; whoever chose them still did.
                seats_assigned=match.seats_assigned,
            )
            offer.new_match = outcome.match
            offer.save(update_fields=["new_match"])
            limits.count(limits.TABLES, [person.pk for person in people.values()])
        announce_on_commit(match.pk, {"type": "rematch.changed"})
    return offer


def state_for(match: Match, seats: list[Seat], user: Any) -> RematchState:
    """The rematch panel of a finished match as ``user`` sees it."""
    now = timezone.now()
    latest = RematchOffer.objects.filter(match=match).order_by("-created_at", "-id").first()
    offer = live_offer(match, now)
    people = [seat.user for seat in seats if seat.user is not None]
    agreed = set(offer.accepted.values_list("pk", flat=True)) if offer else set()
    is_player = access.seat_of(seats, user) is not None
    started = offer is not None and offer.new_match_id is not None
    new_match = offer.new_match if offer and started else None
    if new_match is not None and new_match.is_private and not is_player:
        # An invited spectator of a private table is not invited to its rematch.
        new_match = None
    return RematchState(
        offer=offer,
        is_player=is_player,
        accepted=[p.get_username() for p in people if p.pk in agreed],
        waiting_for=[p.get_username() for p in people if p.pk not in agreed],
        i_accepted=getattr(user, "pk", None) in agreed,
        lapsed=offer is None and latest is not None,
        seconds_left=max(0.0, (offer.expires_at - now).total_seconds()) if offer else 0.0,
        started=started,
        new_match=new_match,
    )
