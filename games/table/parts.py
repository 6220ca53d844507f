"""The parts of the table region, each drawn once per distinct set of the values it reads.

The live table is drawn again for every viewer at every move, yet most of
its parts (the side panels, three of the four seats, often the controls) are
the same as at the move before, or the same as another viewer's. Each part
here names the partial of ``games/table.html`` that draws it and a function
picking, from the region's context, exactly the values that partial reads.
The partial is rendered with those values alone, so they are the whole of
its input: the same values give the same part, which is kept per process
(the least recently used dropped first) and reused by every later picture,
whatever the viewer. A value the partial reads but the function forgets
does not go stale unnoticed: it is missing from every rendering, which
``tests/table/test_parts.py`` catches by comparing each part with the
partial rendered from the whole context.

Parts are kept by the values themselves, as a tuple: they are immutable
and hashable (tuples rather than lists, frozen dataclasses), so finding a
part costs one hash of them rather than writing them all out. A value that
cannot be hashed is compared by its ``repr`` instead; one whose repr shows
an object's address (a model instance) cannot be compared, so its part is
drawn every time. A part holding parts (``Part.inner``) is drawn with their
places left empty and put together with them, once per set of pieces. With
DEBUG on nothing is kept, so that an edited template shows at once.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import attrgetter
from typing import Any

from django.conf import settings
from django.template import Context as TemplateContext
from django.template.loader import get_template

from games.display.cards import CardFace
from games.display.fields import Fields
from games.table.context import TEMPLATE
from games.table.kept import Kept, Unkeyable

# Runs of whitespace, which HTML shows as one space (the parts hold no <pre>).
INDENTATION = re.compile(r"[ \t\r\n]{2,}")
PART_ID = re.compile(r'\s*<[a-z]+\b[^>]*?\sid="([^"]+)"')
# A part inside a part, and where it stood in its outer part's digest.
SUB_PART = re.compile(r"<!--sub-->(.*?)<!--/sub-->", re.S)
SUB_PLACE = "<!--sub:{}-->"
# A part's place inside its outer part drawn alone (``inner_apart`` in its
# context): left empty, to be named once the part inside is drawn.
SUB_EMPTY = "<!--sub--><!--/sub-->"
# Parts kept per process: a few per seat and panel of every match this
# process's sockets watch.
KEPT = 20_000
# Set False in a context drawn afresh: its kept_partial pieces are drawn afresh too.
KEEP_PIECES = "keep_pieces"

Context = dict[str, Any]


def _fields(source: Any, names: tuple[str, ...]) -> Context:
    """The values of ``names`` (two or more) on ``source``, by name: what a partial reads of it."""
    getter = _getters.get(names)
    if getter is None:
        getter = _getters[names] = attrgetter(*names)
    return dict(zip(names, getter(source), strict=True))


_getters: dict[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] = {}


def digest(text: str) -> str:
    """A short digest of ``text``, to compare parts and pictures."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@dataclass(frozen=True, eq=False)
class DrawnPart:
    """One part as drawn: its id, its HTML and its digest, with the parts inside it apart.

    Compared and hashed as itself, not by its text: a part put together from
    kept parts is kept by which parts those are.
    """

    name: str
    # The HTML with a SUB_PLACE where each part inside it stands.
    shell: str
    # The digest of the shell: a change inside an inner part leaves it alone.
    digest: str
    inner: tuple[DrawnPart, ...] = ()

    @cached_property
    def html(self) -> str:
        """The part's whole HTML, the parts inside it in place."""
        html = self.shell
        for sub in self.inner:
            html = html.replace(SUB_PLACE.format(sub.name), sub.html, 1)
        return html


@dataclass(frozen=True)
class Part:
    """A part of the region: the partial that draws it and the values that partial reads.

    ``reads`` returns those values, as the partial's whole context, or None
    when the part needs the whole region's context and is drawn every time.
    ``inner`` are the parts drawn inside it, in the order the partial has
    them between ``<!--sub-->`` marks: each is drawn from its own values, so
    the outer part's values leave them out.
    """

    partial: str
    reads: Callable[[Context], Context | None]
    # For a seat's part: the chair it draws, as placed around the viewer.
    position: str = ""
    inner: tuple[Part, ...] = ()


def _part_id(html: str) -> str:
    """The id of the element a part is; raises ValueError when it has none."""
    found = PART_ID.match(html)
    if found is None:
        raise ValueError(f"a part of the table without an id: {html[:80]!r}")
    return found.group(1)


def cut(html: str) -> DrawnPart:
    """A rendered part made ready to send: indentation dropped, inner parts apart, digested."""
    # The templates' indentation costs bytes in every push, not pixels.
    html = INDENTATION.sub(" ", html).strip()
    if "<!--sub-->" not in html:
        return DrawnPart(name=_part_id(html), shell=html, digest=digest(html))
    inner = tuple(
        DrawnPart(_part_id(sub), sub.strip(), digest(sub.strip())) for sub in SUB_PART.findall(html)
    )
    shell = SUB_PART.sub(lambda found: SUB_PLACE.format(_part_id(found.group(1))), html)
    return DrawnPart(name=_part_id(shell), shell=shell, digest=digest(shell), inner=inner)


def render_partial(partial: str, context: Context) -> str:
    """The partial ``partial`` of the table template rendered with ``context`` alone.

    Numbers are printed as they are rather than through the active locale's
    format, which writes a whole number the same in every language of the site
    (no thousands separator, ``settings.USE_THOUSAND_SEPARATOR``) but cost a good
    part of drawing a seat. No part prints a date or a time as it is.
    """
    template: Any = get_template(f"{TEMPLATE}#{partial}") if settings.DEBUG else _template(partial)
    plain = TemplateContext(context, autoescape=template.backend.engine.autoescape, use_l10n=False)
    html: str = template.template.render(plain)
    return html


@lru_cache(maxsize=64)
def _template(partial: str) -> Any:
    # Looked up once: finding a partial through the loaders costs a good part
    # of rendering a small one.
    return get_template(f"{TEMPLATE}#{partial}")


# --- What each partial reads ------------------------------------------------


# What a seat shows. Not whose turn it is (the region's class marks that) nor
# the card it played (the trick shows it): a seat is drawn again when the
# turn moves on or a trick is gathered only if something it shows changed.
# The countdown ring and the cards held are parts inside the seat's part
# (seat-ring, seat-cards): each move changes them, not the rest of the seat.
SEAT_SHOWS = (
    "position",
    "name",
    "team",
    "is_bot",
    "away",
    "is_me",
    "is_partner",
    "is_dealer",
    "is_leader",
    "bid",
    "declarations",
    "baloot",
)


def _seat(position: str) -> Callable[[Context], Context]:
    def reads(context: Context) -> Context:
        return {"seat": _fields(context["t"].seats[position], SEAT_SHOWS)}

    return reads


def _seat_ring(position: str) -> Callable[[Context], Context]:
    def reads(context: Context) -> Context:
        t = context["t"]
        seat = t.seats[position]
        if seat.ring_ms is None:
            return {"seat": {"position": position, "ring_ms": None}}
        names = ("position", "is_me", "ring_ms", "ring_total_ms")
        return {"seat": _fields(seat, names), "t": {"seconds_left": t.seconds_left}}

    return reads


def _seat_cards(position: str) -> Callable[[Context], Context]:
    def reads(context: Context) -> Context:
        seat = context["t"].seats[position]
        if seat.is_me:
            # The viewer's own cards are the hand, below: nothing to show here.
            return {"seat": {"position": position, "is_me": True}}
        return {"seat": _fields(seat, ("position", "is_me", "count", "backs"))}

    return reads


def _seat_part(position: str) -> Part:
    inner = (
        Part("seat-ring", _seat_ring(position), position),
        Part("seat-cards", _seat_cards(position), position),
    )
    return Part("seat", _seat(position), position, inner=inner)


def _match_over(context: Context) -> Context:
    t = context["t"]
    if not t.match_over:
        return {"t": {"match_over": False}}
    fields = ("match_over", "me", "winner", "we_won", "us_label", "them_label")
    return {
        "t": _fields(t, (*fields, "score_us", "score_them")),
        "urls": {"lobby": context["urls"]["lobby"], "history": context["urls"]["history"]},
    }


def _scoreboard(context: Context) -> Context:
    t = context["t"]
    names = ("us_label", "them_label", "score_us", "score_them", "contract")
    # The tricks and card points show while playing only; which other phase
    # it is, the bar does not say.
    if t.phase != "playing":
        return {"t": {**_fields(t, names), "phase": ""}}
    playing = ("phase", "tricks_us", "tricks_them", "points_us", "points_them")
    return {"t": _fields(t, (*names, *playing))}


def _turn(context: Context) -> Context:
    t = context["t"]
    names = ("status", "my_turn", "seconds_left", "ms_left")
    return {"t": _fields(t, names)}


def _center(context: Context) -> Context:
    t = context["t"]
    shown: Context = {"faceup": t.faceup, "trick": t.trick, "timer_notice": t.timer_notice}
    if not t.trick:
        if t.trick_done:
            names = ("trick_done", "trick_key", "trick_winner_position", "last_trick_winner")
            shown.update(_fields(t, names))
        # Whose lead it is shows only between tricks, while playing: elsewhere
        # the turn moving on leaves the centre alone, and so does the phase.
        shown["phase"] = ""
        if t.phase == "playing":
            shown.update(phase="playing", my_turn=t.my_turn, turn_name=t.turn_name)
    return {"t": shown}


def _controls(context: Context) -> Context:
    t = context["t"]
    names = (
        "bid_buttons",
        "trump_buttons",
        "call_groups",
        "call_buttons",
        "declare_buttons",
        "sawa_button",
        "has_baloot",
    )
    shown = _fields(t, names)
    if not any(shown.values()):
        return {"t": {}}
    return {"t": shown, "urls": {"act": context["urls"]["act"]}}


def _hand(context: Context) -> Context:
    t = context["t"]
    if not t.hand:
        return {"t": {}}
    return {
        "t": {"hand": t.hand, "playing_now": t.playing_now},
        "urls": {"act": context["urls"]["act"]},
    }


def _seat_actions(context: Context) -> Context:
    mine = context["my_seat"]
    if mine is None or context["t"].match_over:
        return {"my_seat": None}
    urls = context["urls"]
    return {
        "my_seat": {"number": mine.number, "away": mine.away},
        "t": {"match_over": False},
        "urls": {name: urls[name] for name in ("back", "leave", "lobby")},
        "csrf_field": context["csrf_field"],
    }


def _commitment(context: Context) -> Context:
    return {"current_deal": context["current_deal"]}


def _deal_log(context: Context) -> Context:
    t = context["t"]
    return {"t": {"bids": t.bids, "calls": t.calls}}


@dataclass(frozen=True)
class _Listed(Fields):
    """A card of the last trick as its panel lists it."""

    name: str
    face: CardFace


def _last_trick(context: Context) -> Context:
    t = context["t"]
    # Only the name and the card are shown, not where the viewer sees the seat:
    # every viewer shares one drawing.
    cards = tuple(_Listed(played.name, played.face) for played in t.last_trick)
    return {"t": {"last_trick": cards, "last_trick_winner": t.last_trick_winner}}


def _result(context: Context) -> Context:
    t = context["t"]
    if not t.result:
        return {"t": {}}
    names = (
        "result",
        "match_over",
        "us_label",
        "them_label",
        "sawa_name",
        "sawa_cards",
        "redeal_name",
        "redeal_cards",
    )
    # The panel opens as its deal ends: of the phases, only that one shows.
    over = "round_over" if t.phase == "round_over" else ""
    return {"t": {**_fields(t, names), "phase": over}}


def _sheet(context: Context) -> Context:
    t = context["t"]
    names = ("sheet", "match_over", "us_label", "them_label")
    return {"t": _fields(t, names)}


def _whole(context: Context) -> None:
    return None


# In the order they stand in the region.
TABLE_PARTS = (
    Part("match-over", _match_over),
    # The status line changes with every move, the rest of the bar seldom.
    Part("scoreboard", _scoreboard, inner=(Part("turn", _turn),)),
    _seat_part("top"),
    _seat_part("left"),
    Part("center", _center),
    _seat_part("right"),
    _seat_part("bottom"),
    Part("controls", _controls),
    Part("hand", _hand),
    Part("seat-actions", _seat_actions),
    Part("commitment", _commitment),
    Part("deal-log", _deal_log),
    Part("last-trick", _last_trick),
    Part("result", _result),
    Part("sheet", _sheet),
)
WAITING_PARTS = (Part("waiting", _whole),)


def parts_of(context: Context) -> tuple[Part, ...]:
    """The parts of the region the context ``context`` draws (none for a stopped match)."""
    if context.get("waiting"):
        return WAITING_PARTS
    if context.get("t"):
        return TABLE_PARTS
    return ()


# --- Kept parts -------------------------------------------------------------

_kept: Kept[DrawnPart] = Kept(KEPT)
# Parts holding parts, by the parts they are put together from.
_assembled: Kept[DrawnPart] = Kept(KEPT)


def forget() -> None:
    """Drop every kept part."""
    _kept.clear()
    _assembled.clear()


def drawn(part: Part, context: Context, language: str, *, keep: bool = True) -> DrawnPart:
    """``part`` of the region whose context is ``context``, in ``language`` (the active
    one, read once by the caller rather than once a part).

    ``keep`` False draws it afresh, finding nothing kept and keeping nothing
    (for the tests that compare); with DEBUG on nothing is kept either, so
    that an edited template shows at once.
    """
    keep = keep and not settings.DEBUG
    made = _drawn_alone(part, context, language, keep)
    if not part.inner:
        return made
    pieces = (made, *[drawn(sub, context, language, keep=keep) for sub in part.inner])
    # Put together once per set of pieces, so that its HTML and digest are too.
    if keep:
        return _assembled.get_or_make(pieces, lambda: _assemble(*pieces))
    return _assemble(*pieces)


def _assemble(outer: DrawnPart, *inner: DrawnPart) -> DrawnPart:
    """``outer``, drawn alone, with the parts ``inner`` in their places (in order);
    raises ValueError when it has not as many places."""
    shell = outer.shell
    if shell.count(SUB_EMPTY) != len(inner):
        raise ValueError(f"{outer.name} has no place for each part inside it")
    for sub in inner:
        shell = shell.replace(SUB_EMPTY, SUB_PLACE.format(sub.name), 1)
    return DrawnPart(outer.name, shell, digest(shell), inner)


# Marks a value of a part's context that is a dict, in ``_key``.
_DICT = object()


def _key(partial: str, language: str, values: Context) -> tuple[Any, ...]:
    """What a part drawn from ``values`` is kept by: one flat tuple of the values.

    One tuple rather than one per name and per field: a kept part's key lives
    as long as the part, and the cycle collector walks every tuple young
    enough, at every collection of the young objects, until then. A dict
    value is written as the mark, its length, its names and then its values,
    so no two different contexts give the same key.
    """
    key: list[Any] = [partial, language]
    for name, value in values.items():
        if type(value) is dict:
            key += (name, _DICT, len(value), *value, *value.values())
        else:
            key += (name, value)
    return tuple(key)


def _drawn_alone(part: Part, context: Context, language: str, keep: bool) -> DrawnPart:
    """``part`` drawn or found kept; the parts inside it, if it names any, left out
    (their places empty, ``_assemble`` fills them)."""
    values = part.reads(context)

    def make() -> DrawnPart:
        shown = context if values is None else values
        if not part.inner:
            return cut(render_partial(part.partial, shown))
        # What the parts inside would show is drawn apart, from their own values.
        html = render_partial(part.partial, {**shown, "inner_apart": True})
        html = INDENTATION.sub(" ", html).strip()
        return DrawnPart(name=_part_id(html), shell=html, digest="")

    if values is None:
        return make()
    if not keep:
        # The pieces inside a part are drawn afresh too (games.templatetags.kept_partials).
        values = {**values, KEEP_PIECES: False}
        return make()

    # Kept by the values themselves: a tuple of them hashes and compares at C
    # speed, where writing them out cost more than most parts' drawing.
    try:
        key = _key(part.partial, language, values)
        return _kept.get_or_make(key, make)
    except Unkeyable:
        pass
    # A value that cannot be hashed is compared by its repr; one whose repr
    # shows its address cannot be compared at all.
    shown = repr(values)
    if " at 0x" in shown:
        return make()
    return _kept.get_or_make((part.partial, language, shown), make)
