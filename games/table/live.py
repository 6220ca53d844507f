"""The live table's pictures: each view drawn once per version, pushed as changed parts.

A *picture* is the table region as one kind of viewer sees it at one version
of a match: one of the four seats or a spectator (and, before the start,
whether they are a member or hold the invite), in one language. It is drawn
as a set of named parts with stable ids (the status bar, each seat, the
trick, the hand, the controls, each side panel), and carries a digest of the
whole, its *view*.

A part may hold smaller parts of its own (``<!--sub-->...<!--/sub-->`` in the
templates around one element with an id), for what changes more often than
what surrounds it, such as the status line in the status bar: the outer
part's digest leaves them out, so a change inside one sends that one alone.

A socket remembers the picture it last sent. The next push sends only the
parts whose digest changed, as out-of-band morphs, headed by the marker
``<input id="table-seq">`` that names the event number, the new view and the
view the changes apply to (``data-base``). A page that does not show that
base asks for the whole region again (``static/js/table.js``).

Each server process keeps, for every match its sockets watch, the latest
reading of the match and the pictures drawn from it (the ``Hub``): however
many sockets watch a match, the state is read once per version and each
view drawn once; and each part is drawn once per distinct set of the values
it reads, whichever view it belongs to (``games.table.parts``). A reading
made by this process's own services (an action posted here, the embedded
worker's moves) is handed over directly, so announcing it costs no query at
all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from games.match import steps
from games.match.access import invite_matches, is_member, seat_of
from games.match.broadcast import Notice, listen
from games.match.models import Match
from games.table.parts import digest, drawn, keeping, parts_of
from games.table.render import (
    TEMPLATE,
    MatchReading,
    advanced,
    read_match,
    reading_of,
    table_context,
)

logger = logging.getLogger(__name__)

# Where a form's CSRF field goes; filled in only for an HTTP answer.
CSRF_MARK = "<!--csrf-->"
# A picture drawn longer ago than this is drawn again before being sent
# whole, so that the countdown it carries is current.
FRESH_SECONDS = 1.0
# Announcements of seat changes remembered per match, to tell one already
# read from a new one.
REVISIONS_KEPT = 64


@dataclass(frozen=True)
class ViewKey:
    """What a picture depends on besides the match: who looks, and in which language."""

    seat: int | None
    member: bool
    invited: bool
    language: str


@dataclass
class Picture:
    """One view of the table region at one version, as named parts."""

    seq: int
    view: str
    css_class: str
    parts: dict[str, str]
    # The digest of each part (its own parts left out) and of each part inside one.
    digests: dict[str, str]
    # Each part inside a part, by id: its HTML and the id of the part holding it.
    inner: dict[str, tuple[str, str]]
    context: dict[str, Any]
    language: str
    drawn_at: float
    _region: str | None = None

    def marker(self, base: str | None = None) -> str:
        """The marker naming this picture; with ``base``, an out-of-band swap of changes."""
        extra = f' data-base="{base}" hx-swap-oob="true"' if base is not None else ""
        return (
            f'<input type="hidden" id="table-seq" name="expected_seq" form="act-form"'
            f' value="{self.seq}" data-seq="{self.seq}" data-view="{self.view}"'
            f' data-class="{escape(self.css_class)}"{extra}>'
        )

    def region(self, *, error: str = "") -> str:
        """The whole table region, with CSRF marks where forms want their token."""
        if self._region is not None and not error:
            return self._region
        context = dict(self.context)
        context.update(
            parts={name.replace("-", "_"): mark_safe(html) for name, html in self.parts.items()},
            marker=mark_safe(self.marker()),
            css_class=self.css_class,
            error=error,
        )
        with translation.override(self.language):
            html = render_to_string(f"{TEMPLATE}#table", context)
        if not error:
            self._region = html
        return html

    def whole(self) -> str:
        """The whole region as a push: morphed into the page in one piece."""
        region = self.region().replace(CSRF_MARK, "")
        return region.replace('<section id="table"', '<section id="table" hx-swap-oob="morph"', 1)

    def answer(self, request: Any, *, error: str = "") -> str:
        """The whole region as the answer to an HTTP request, its forms with their token."""
        field_html = (
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{get_token(request)}">'
        )
        return self.region(error=error).replace(CSRF_MARK, field_html)

    def changes_since(self, sent: Picture | None) -> str | None:
        """What to push to a page showing ``sent``: changed parts, the whole region, or None."""
        if sent is None or sent.parts.keys() != self.parts.keys():
            return self.whole()
        if sent.view == self.view:
            return None
        changed = [name for name, mark in self.digests.items() if sent.digests.get(name) != mark]
        # A part sent whole carries the parts inside it.
        whole = {name for name in changed if name in self.parts}
        frames = [
            _out_of_band(name, self.parts[name] if name in whole else self.inner[name][0])
            for name in changed
            if name in whole or self.inner[name][1] not in whole
        ]
        return self.marker(base=sent.view) + "".join(frames).replace(CSRF_MARK, "")


def _out_of_band(name: str, html: str) -> str:
    return html.replace(f'id="{name}"', f'id="{name}" hx-swap-oob="morph"', 1)


def draw(reading: MatchReading, user: Any, *, invite: str = "", language: str) -> Picture:
    """The table region for ``user`` at ``reading``, drawn as parts, all in ``language``.

    The context is built in the viewer's language too: the display layer
    translates its labels and status lines as it builds them, so a picture
    drawn for one viewer in a process whose active language is another's
    must not pick up that other language. Each part is drawn once per
    distinct set of the values it reads (``games.table.parts``).
    """
    parts: dict[str, str] = {}
    digests: dict[str, str] = {}
    inner: dict[str, tuple[str, str]] = {}
    with translation.override(language):
        context = table_context(reading, user, invite=invite)
        context["csrf_field"] = mark_safe(CSRF_MARK)
        keep = keeping()
        for part in parts_of(context):
            made = drawn(part, context, language, keep=keep)
            parts[made.name] = made.html
            digests[made.name] = made.digest
            for sub in made.inner:
                inner[sub.name] = (sub.html, made.name)
                digests[sub.name] = sub.digest
    table = context.get("t")
    css_class = "table-region"
    if table is not None:
        css_class += f" phase-{table.phase}"
        # The seat to act is marked from the region's class, so that the
        # turn moving on does not change the seats themselves.
        turn = next((seat.position for seat in table.seats.values() if seat.is_turn), None)
        if turn is not None:
            css_class += f" turn-{turn}"
    view = digest(f"{reading.seq}|{css_class}|{'|'.join(digests.values())}")
    return Picture(
        seq=reading.seq,
        view=view,
        css_class=css_class,
        parts=parts,
        digests=digests,
        inner=inner,
        context=context,
        language=language,
        drawn_at=time.monotonic(),
    )


def version_of(reading: MatchReading) -> tuple[Any, ...]:
    """Everything besides the viewer that a picture of ``reading`` depends on."""
    match = reading.match
    seats = tuple(
        (n, seat.user_id, seat.is_bot, seat.away) for n, seat in sorted(reading.seats.items())
    )
    invite = (match.invite_token, match.invite_issued_at)
    return (reading.seq, match.status, match.deadline, match.deal_commitment, seats, invite)


@dataclass
class _Watched:
    """One match watched by this process's sockets."""

    sockets: Counter[int] = field(default_factory=Counter)
    reading: MatchReading | None = None
    version: tuple[Any, ...] | None = None
    revisions: deque[str] = field(default_factory=lambda: deque(maxlen=REVISIONS_KEPT))
    pictures: dict[ViewKey, Picture] = field(default_factory=dict)
    seq_checked_at: float = 0.0


class Hub:
    """This process's readings and pictures of the matches its sockets watch."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watched: dict[int, _Watched] = {}

    # --- Sockets -----------------------------------------------------------

    def join(self, match_id: int, user_id: int) -> bool:
        """Count a socket of ``user_id`` at ``match_id``; False when they hold
        TABLE_SOCKETS_PER_USER there already.

        The process's slots and each person's share across matches are
        ``games.match.admission``'s.
        """
        with self._lock:
            watched = self._watched.setdefault(match_id, _Watched())
            if watched.sockets[user_id] >= settings.TABLE_SOCKETS_PER_USER:
                if not watched.sockets:
                    del self._watched[match_id]
                return False
            watched.sockets[user_id] += 1
            return True

    def leave(self, match_id: int, user_id: int) -> None:
        """Forget one socket; a match nobody watches is forgotten too."""
        with self._lock:
            watched = self._watched.get(match_id)
            if watched is None:
                return
            watched.sockets[user_id] -= 1
            if watched.sockets[user_id] <= 0:
                del watched.sockets[user_id]
            if not watched.sockets:
                del self._watched[match_id]

    def viewers(self, match_id: int) -> frozenset[int]:
        """The users who hold this process's sockets at ``match_id``."""
        with self._lock:
            watched = self._watched.get(match_id)
            return frozenset(watched.sockets) if watched is not None else frozenset()

    def watched(self) -> Iterable[int]:
        with self._lock:
            return list(self._watched)

    # --- Readings ----------------------------------------------------------

    def offer(self, reading: MatchReading, revision: str) -> None:
        """Keep a reading made in this process (announced as ``revision``), if anyone watches."""
        with self._lock:
            watched = self._watched.get(reading.match.pk)
            if watched is not None:
                self._keep(watched, reading)
                watched.revisions.append(revision)

    def advance(self, match_id: int, seq: int, revision: str | None, step: Any) -> bool:
        """Bring the kept reading of the match to event ``seq`` by the announced ``step``
        (``games.match.steps``); False when it does not follow on from the kept
        reading, which the database must then bring up to date. Never reads it.
        """
        with self._lock:
            watched = self._watched.get(match_id)
            kept = watched.reading if watched is not None else None
        if kept is None or kept.seq >= seq:
            return False
        try:
            decoded = steps.decode(step)
            reading = None
            if decoded is not None and decoded.match.pk == match_id and decoded.match.seq == seq:
                reading = advanced(kept, decoded)
        except Exception:
            # Whatever went wrong, the database still knows.
            logger.exception("match %s: the step to event %s was not taken", match_id, seq)
            return False
        if reading is None:
            return False
        with self._lock:
            watched = self._watched.get(match_id)
            # Another reading was kept meanwhile: it is as good, or later.
            if watched is None or watched.reading is not kept:
                return False
            self._keep(watched, reading)
            if revision is not None:
                watched.revisions.append(revision)
        return True

    def reading(
        self, match_id: int, seq: int, revision: str | None, *, fresh: bool = False
    ) -> MatchReading:
        """The match at event ``seq`` or later, reflecting ``revision``; read only when needed.

        ``fresh`` reads it from the database whatever is known. Raises
        Match.DoesNotExist.
        """
        if not fresh:
            known = self.known(match_id, seq, revision)
            if known is not None:
                return known
        with self._lock:
            watched = self._watched.get(match_id)
            earlier = watched.reading if watched is not None else None
        reading = read_match(match_id, since=earlier)
        with self._lock:
            watched = self._watched.get(match_id)
            if watched is None:
                return reading
            kept = self._keep(watched, reading)
            if revision is not None and kept is reading:
                watched.revisions.append(revision)
            return kept

    def known(self, match_id: int, seq: int, revision: str | None) -> MatchReading | None:
        """The kept reading of the match at event ``seq`` or later, reflecting ``revision``;
        None when only the database can say (never reads it)."""
        with self._lock:
            watched = self._watched.get(match_id)
            known = watched.reading if watched is not None else None
            if (
                known is not None
                and watched is not None
                and (
                    known.seq > seq
                    or (known.seq == seq and (revision is None or revision in watched.revisions))
                )
            ):
                return known
        return None

    def stale(self, match_id: int, seq: int) -> bool:
        """True when the database holds a later event than ``seq``; asked at most once a second."""
        now = time.monotonic()
        with self._lock:
            watched = self._watched.get(match_id)
            if watched is None or now - watched.seq_checked_at < 1.0:
                return False
            watched.seq_checked_at = now
        current = Match.objects.filter(pk=match_id).values_list("seq", flat=True).first()
        return current is not None and current > seq

    def _keep(self, watched: _Watched, reading: MatchReading) -> MatchReading:
        """Make ``reading`` the match's latest unless a later one is kept; returns the latest."""
        if watched.reading is not None and watched.reading.seq > reading.seq:
            return watched.reading
        version = version_of(reading)
        if version != watched.version:
            watched.pictures.clear()
            watched.version = version
        watched.reading = reading
        return reading

    # --- Pictures ----------------------------------------------------------

    def picture(
        self,
        reading: MatchReading,
        user: Any,
        key: ViewKey,
        *,
        invite: str = "",
        fresh: bool = False,
        redraw: bool = False,
    ) -> Picture:
        """``user``'s picture of ``reading``, drawn once per version and view.

        ``fresh`` asks for a picture drawn within the last second (one sent
        whole carries a countdown); ``redraw`` for one drawn now (the clock
        changed).
        """
        match_id = reading.match.pk
        version = version_of(reading)
        with self._lock:
            watched = self._watched.get(match_id)
            cached = None
            if watched is not None and watched.version == version:
                cached = watched.pictures.get(key)
            if cached is not None and not (
                redraw or (fresh and time.monotonic() - cached.drawn_at > FRESH_SECONDS)
            ):
                return cached
        picture = draw(reading, user, invite=invite, language=key.language)
        with self._lock:
            watched = self._watched.get(match_id)
            if watched is not None and watched.version == version:
                watched.pictures[key] = picture
        return picture


HUB = Hub()


def _on_announcement(announcement: Notice) -> None:
    """Hand a change made in this process to the hub, with its outcome when it has one."""
    outcome = announcement.outcome
    if outcome is not None and outcome.seats is not None:
        HUB.offer(reading_of(outcome), announcement.revision)


listen(_on_announcement)


def view_key(reading: MatchReading, user: Any, invite: str, language: str) -> ViewKey:
    """The kind of viewer ``user`` is at ``reading``'s table."""
    mine = seat_of(reading.seats.values(), user)
    waiting = reading.match.status == Match.Status.WAITING
    return ViewKey(
        seat=mine.number if mine else None,
        member=waiting and is_member(reading.match, reading.seats.values(), user),
        invited=waiting and invite_matches(reading.match, invite),
        language=language,
    )
