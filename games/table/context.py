"""What the live table shows one viewer at one version: the template context of its region.

Views and the WebSocket consumer both draw from here (through
``games.table.live``, which renders the context as parts), so a seat gets
the same HTML whichever way it asks. Who looks (``Viewer``) is worked out
once per answer or push (``viewer_of``) and handed down. What a user sees
is decided by ``rules.view_for`` for their own seat (or ``None`` for a
spectator); everything else added here is public: who sits where, the
table's settings, and the event number the picture belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils import timezone

from games import rules
from games.display.fields import Fields
from games.match.access import (
    invite_expiry,
    invite_live,
    invite_matches,
    is_host,
    is_member,
    may_join,
    may_run,
    seat_of,
)
from games.match.deadlines import seconds_to_act
from games.match.models import BotLevel, Match, Seat
from games.match.versions import MatchVersion
from games.table.kept import Kept
from games.table.picture import SeatInfo, Shared, Table, build_table

TEMPLATE = "games/table.html"


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
class ViewKey:
    """What a picture depends on besides the match: who looks, and in which language."""

    seat: int | None
    member: bool
    invited: bool
    language: str


@dataclass(frozen=True)
class Viewer:
    """Who looks at a table at one version, worked out once per answer or push.

    ``seat`` is their seat there, if any; ``member`` and ``invited`` matter
    before the start only (False afterwards): whether they sit or created the
    table, and whether ``invite`` (the one their session holds) opens it.
    """

    user: Any
    seat: Seat | None
    member: bool
    invited: bool
    invite: str
    language: str

    @property
    def key(self) -> ViewKey:
        """What kind of viewer this is, for the pictures drawn once per kind."""
        return ViewKey(
            self.seat.number if self.seat is not None else None,
            self.member,
            self.invited,
            self.language,
        )


def viewer_of(version: MatchVersion, user: Any, *, invite: str = "", language: str) -> Viewer:
    """``user`` as a viewer of ``version``'s table, holding ``invite``, reading ``language``."""
    match = version.match
    seats = version.seats.values()
    waiting = match.status == Match.Status.WAITING
    return Viewer(
        user=user,
        seat=seat_of(seats, user),
        member=waiting and is_member(match, seats, user),
        invited=waiting and invite_matches(match, invite),
        invite=invite,
        language=language,
    )


def seat_name(seat: Seat) -> str:
    """How a seat is called at the table: its player, or its bot's name (one per seat)."""
    return seat.occupant_label


def table_for(version: MatchVersion, viewer: Viewer, shared: Shared | None = None) -> Table:
    """The printable table for ``viewer``: their seat's view, or a spectator's.

    ``shared`` holds what every picture of ``version`` in the viewer's
    language has in common (the public view, the seats' names, the drawn
    panels), made by the first picture that finds it missing; None makes
    everything afresh.
    """
    mine = viewer.seat
    state = version.state
    public = None
    if shared is not None:
        public = shared.get("view")
        if public is None:
            public = shared.setdefault("view", rules.view_for(state, None))
    view = rules.view_for(state, mine.number if mine else None, public=public)
    seats = shared.get("seats") if shared is not None else None
    if seats is None:
        seats = {
            n: SeatInfo(seat_name(seat), is_bot=seat.is_bot, away=seat.away)
            for n, seat in version.seats.items()
        }
        if shared is not None:
            shared["seats"] = seats
    turn = version.seats.get(state.turn) if state.turn else None
    return build_table(
        view,
        seats,
        seq=version.seq,
        deadline=_countdown(version),
        now=timezone.now(),
        turn_seconds=seconds_to_act(version.match, version.state, turn) if turn else None,
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


def _countdown(version: MatchVersion) -> Any:
    """The deadline of the person to act, if the table keeps one.

    A bot, or a seat played by a bot while its player is away, acts after a
    short delay rather than at a deadline worth watching, so it gets none.
    """
    turn = version.state.turn
    seat = version.seats.get(turn) if turn else None
    if seat is None or seat.is_bot or seat.away:
        return None
    return getattr(version.match, "deadline", None)


def waiting_room(version: MatchVersion, viewer: Viewer) -> list[WaitingSeat]:
    """The four chairs of a table waiting for players."""
    mine = viewer.seat
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
        for n, seat in sorted(version.seats.items())
    ]


def table_context(
    version: MatchVersion, viewer: Viewer, shared: Shared | None = None
) -> dict[str, Any]:
    """The template context of the table region's parts for ``viewer`` (``shared``: see
    ``table_for``)."""
    match = version.match
    mine = viewer.seat
    user = viewer.user
    context: dict[str, Any] = {
        "match": match,
        "seq": version.seq,
        "my_seat": mine,
        "urls": _urls(match.pk),
        "current_deal": current_deal(match),
    }
    # Who runs the table matters in the waiting room only, which every
    # picture of a running table would otherwise work out again.
    if match.status == Match.Status.WAITING:
        seats = waiting_room(version, viewer)
        member = viewer.member
        private = member and match.is_private
        context.update(
            member=member,
            # Who may add bots and start (the seated host), and remove a player (the host).
            may_run=may_run(match, version.seats.values(), user),
            host=is_host(match, user),
            waiting=seats,
            full=all(not s.is_empty for s in seats),
            may_sit=mine is None and may_join(match, user, viewer.invite),
            invite_url=_invite_url(match) if private and invite_live(match) else "",
            invite_until=invite_expiry(match) if private else None,
            invite_off=private and not invite_live(match),
            invite_op=reverse("play:invite", args=[match.pk]),
            bot_levels=BotLevel.choices,
        )
    elif version.seq:
        context["t"] = table_for(version, viewer, shared)
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
