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

Each server process keeps the latest version of every match it knows
(``games.match.versions.STORE``) and, for every match its sockets watch,
the pictures drawn from it (the ``Hub``): however many sockets watch a
match, the state is read once per version and each kind of viewer
(``ViewKey``) drawn once; and each part is drawn once per distinct set of
the values it reads, whichever picture it belongs to (``games.table.parts``).
A version made by this process's own services (an action posted here, the
embedded worker's moves) reaches the store with its announcement, so
announcing it costs no query at all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from games.match import steps, versions
from games.match.models import Match
from games.match.versions import MatchVersion, Versions, read
from games.table.context import TEMPLATE, Viewer, ViewKey, table_context
from games.table.parts import KEEP_PIECES, digest, drawn, parts_of
from games.table.picture import Shared

logger = logging.getLogger(__name__)

# Where a form's CSRF field goes; filled in only for an HTTP answer.
CSRF_MARK = "<!--csrf-->"
# A picture drawn longer ago than this is drawn again before being sent
# whole, so that the countdown it carries is current.
FRESH_SECONDS = 1.0


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


def draw(
    version: MatchVersion, viewer: Viewer, *, shared: Shared | None = None, keep: bool = True
) -> Picture:
    """The table region for ``viewer`` at ``version``, drawn as parts, all in their language.

    The context is built in the viewer's language too: the display layer
    translates its labels and status lines as it builds them, so a picture
    drawn for one viewer in a process whose active language is another's
    must not pick up that other language. Each part is drawn once per
    distinct set of the values it reads (``games.table.parts``); ``shared``
    holds what the pictures of ``version`` in this language have in common
    (``context.table_for``). ``keep`` False draws everything afresh, nothing
    kept found or kept (for the tests that compare).
    """
    language = viewer.language
    parts: dict[str, str] = {}
    digests: dict[str, str] = {}
    inner: dict[str, tuple[str, str]] = {}
    with translation.override(language):
        context = table_context(version, viewer, shared if keep else None)
        context["csrf_field"] = mark_safe(CSRF_MARK)
        if not keep:
            context[KEEP_PIECES] = False
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
    view = digest(f"{version.seq}|{css_class}|{'|'.join(digests.values())}")
    return Picture(
        seq=version.seq,
        view=view,
        css_class=css_class,
        parts=parts,
        digests=digests,
        inner=inner,
        context=context,
        language=language,
        drawn_at=time.monotonic(),
    )


def drawn_from(version: MatchVersion) -> tuple[Any, ...]:
    """Everything of ``version`` that a picture depends on besides the viewer: the pictures
    kept for a match are those of this one value."""
    match = version.match
    seats = tuple(
        (n, seat.user_id, seat.is_bot, seat.away) for n, seat in sorted(version.seats.items())
    )
    invite = (match.invite_token, match.invite_issued_at)
    return (
        version.revision,
        version.seq,
        version.consistent,
        match.status,
        match.deadline,
        match.deal_commitment,
        seats,
        invite,
    )


@dataclass
class _Watched:
    """One match watched by this process's sockets, and its pictures of one version."""

    sockets: Counter[int] = field(default_factory=Counter)
    # What the pictures below were drawn from (``drawn_from``).
    drawn_from: tuple[Any, ...] | None = None
    pictures: dict[ViewKey, Picture] = field(default_factory=dict)
    # What the pictures of that version share, by language (``context.table_for``).
    shared: dict[str, Shared] = field(default_factory=dict)
    seq_checked_at: float = 0.0


class Hub:
    """This process's sockets and pictures of the matches they watch, drawn from the
    versions of ``store`` (the process's, ``games.match.versions.STORE``; a test's
    stands for another process)."""

    def __init__(self, store: Versions | None = None) -> None:
        self._lock = threading.Lock()
        self._watched: dict[int, _Watched] = {}
        self.store = store if store is not None else Versions()

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
        """Forget one socket; the pictures of a match nobody watches are forgotten too."""
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

    # --- Versions ----------------------------------------------------------

    def advance(self, match_id: int, seq: int, revision: str | None, step: Any) -> bool:
        """Bring the kept version of a watched match to event ``seq`` by the announced
        ``step`` (``games.match.steps.apply``); False when it does not follow on from
        the kept version, which the database must then bring up to date. Never reads it.
        """
        with self._lock:
            if match_id not in self._watched:
                return False
        kept = self.store.latest(match_id)
        if kept is None or kept.seq >= seq:
            return False
        try:
            version = steps.apply(kept, step)
        except Exception:
            # Whatever went wrong, the database still knows.
            logger.exception("match %s: the step to event %s was not taken", match_id, seq)
            return False
        if version is None or version.seq != seq:
            return False
        # Another version was kept meanwhile: it is as good, or later.
        return self.store.follow(kept, version, revision)

    def version(
        self, match_id: int, seq: int, revision: str | None, *, fresh: bool = False
    ) -> MatchVersion:
        """The match at event ``seq`` or later, reflecting ``revision``; read only when needed.

        ``fresh`` reads it from the database whatever is known. Raises
        Match.DoesNotExist.
        """
        if not fresh:
            known = self.store.known(match_id, seq, revision)
            if known is not None:
                return known
        return self.store.remember(read(match_id, since=self.store.latest(match_id)), revision)

    def known(self, match_id: int, seq: int, revision: str | None) -> MatchVersion | None:
        """The kept version of the match at event ``seq`` or later, reflecting ``revision``;
        None when only the database can say (never reads it)."""
        return self.store.known(match_id, seq, revision)

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

    # --- Pictures ----------------------------------------------------------

    def picture(
        self, version: MatchVersion, viewer: Viewer, *, fresh: bool = False, redraw: bool = False
    ) -> Picture:
        """``viewer``'s picture of ``version``, drawn once per version and kind of viewer.

        ``fresh`` asks for a picture drawn within the last second (one sent
        whole carries a countdown); ``redraw`` for one drawn now (the clock
        changed).
        """
        match_id = version.match.pk
        basis = drawn_from(version)
        key = viewer.key
        shared: Shared | None = None
        with self._lock:
            watched = self._watched.get(match_id)
            if watched is not None:
                if watched.drawn_from != basis:
                    watched.drawn_from = basis
                    watched.pictures.clear()
                    watched.shared.clear()
                cached = watched.pictures.get(key)
                if cached is not None and not (
                    redraw or (fresh and time.monotonic() - cached.drawn_at > FRESH_SECONDS)
                ):
                    return cached
                shared = watched.shared.setdefault(key.language, {})
        picture = draw(version, viewer, shared=shared)
        with self._lock:
            watched = self._watched.get(match_id)
            if watched is not None and watched.drawn_from == basis:
                watched.pictures[key] = picture
        return picture


HUB = Hub(versions.STORE)
