"""My matches: the matches a player sat in, newest first, filtered and paged.

Imported matches have no seated player, so they never appear here nor count
as won or lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django import forms
from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext_lazy

from games.match.models import Match, Seat

PAGE_SIZE = 20
WON = Q(match__winner="A", number__in=(1, 3)) | Q(match__winner="B", number__in=(2, 4))
LOST = Q(match__winner="A", number__in=(2, 4)) | Q(match__winner="B", number__in=(1, 3))


class HistoryFilter(forms.Form):
    """The filters of "My matches"; an unknown value means no filter."""

    status = forms.ChoiceField(
        label=gettext_lazy("Status"),
        required=False,
        choices=[
            ("", gettext_lazy("All matches")),
            ("finished", gettext_lazy("Finished")),
            ("running", gettext_lazy("Being played")),
        ],
    )
    result = forms.ChoiceField(
        label=gettext_lazy("Result"),
        required=False,
        choices=[
            ("", gettext_lazy("Won or lost")),
            ("won", gettext_lazy("Won")),
            ("lost", gettext_lazy("Lost")),
        ],
    )

    def selected(self) -> tuple[str, str]:
        """The valid status and result chosen, "" for each one not chosen."""
        if not self.is_valid():
            return "", ""
        return self.cleaned_data["status"], self.cleaned_data["result"]


def my_seats(user: Any, status: str = "", result: str = "") -> QuerySet[Seat]:
    """The seats ``user`` held, newest match first, with each match and its players.

    ``status`` is "finished", "running" or ""; ``result`` "won", "lost" or "".
    Imported matches are left out: nobody sat in them.
    """
    seats = Seat.objects.filter(user=user, match__imported=False)
    if status == "finished":
        seats = seats.filter(match__status=Match.Status.FINISHED)
    elif status == "running":
        seats = seats.filter(match__status=Match.Status.PLAYING)
    if result == "won":
        seats = seats.filter(WON)
    elif result == "lost":
        seats = seats.filter(LOST)
    players = Seat.objects.select_related("user").order_by("number")
    return (
        seats.select_related("match")
        .prefetch_related(Prefetch("match__seats", queryset=players))
        .order_by("-match__created_at", "-match__id")
    )


@dataclass(frozen=True)
class HistoryLine:
    """One of a player's matches, seen from their seat."""

    match: Match
    seat: Seat
    partner: str
    opponents: list[str]
    # The usernames behind those names ("" for a bot), for links to profiles.
    partner_username: str = ""
    opponent_usernames: list[str] = field(default_factory=list)

    @property
    def opponent_names(self) -> list[tuple[str, str]]:
        """Each opponent as (name, username), the username "" for a bot."""
        usernames = self.opponent_usernames or [""] * len(self.opponents)
        return list(zip(self.opponents, usernames, strict=True))

    @property
    def us(self) -> int:
        """The score of the player's team."""
        return self.match.score_a if self.seat.team == "A" else self.match.score_b

    @property
    def them(self) -> int:
        """The score of the other team."""
        return self.match.score_b if self.seat.team == "A" else self.match.score_a

    @property
    def won(self) -> bool | None:
        """True or False once the match has a winner, None before."""
        if self.match.winner is None:
            return None
        return self.match.winner == self.seat.team

    @property
    def date(self) -> datetime:
        """When the match ended, or else when it was created."""
        return self.match.finished_at or self.match.created_at


def history_lines(seats: Iterable[Seat]) -> list[HistoryLine]:
    """The lines of "My matches" for ``seats`` (from ``my_seats``)."""
    lines = []
    for seat in seats:
        at_table = {s.number: s for s in seat.match.seats.all()}
        others = {n: s.occupant_label for n, s in at_table.items()}
        usernames = {n: s.user.get_username() if s.user else "" for n, s in at_table.items()}
        partner = (seat.number + 1) % 4 + 1
        opponents = [n for n in (1, 2, 3, 4) if (n - seat.number) % 2]
        lines.append(
            HistoryLine(
                match=seat.match,
                seat=seat,
                partner=others.get(partner, ""),
                opponents=[others.get(n, "") for n in opponents],
                partner_username=usernames.get(partner, ""),
                opponent_usernames=[usernames.get(n, "") for n in opponents],
            )
        )
    return lines
