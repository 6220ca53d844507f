"""What the table page shows, built from one seat's ``view_for`` and nothing else.

The rules engine decides what a seat or a spectator may see
(``games.rules.view_for``); this module only turns that view into things a
template can print: card faces with accessible names, the seats placed
around the table from the viewer's chair, exactly the legal buttons, and
(through ``games.display.result_panel``) the result panel and the score sheet. It
never receives the engine state, so it cannot show more than the view holds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games.display import labels
from games.display.cards import CardFace, card_face, face_in
from games.display.fields import Fields
from games.display.result_panel import ResultPanel, result_panel
from games.display.score_sheet import SheetRow, score_sheet
from games.display.shown import Shown
from games.match.deadlines import MISSED_TURNS_BEFORE_AWAY
from games.rules.projects import VALUES as PROJECT_VALUES
from games.rules.view import OWN
from games.table.kept import Kept

View = Mapping[str, Any]

# Chairs counted from the viewer: the next seat in turn order sits on the
# viewer's right (play is counterclockwise, notation.md), the partner opposite.
POSITIONS = ("bottom", "right", "top", "left")
# Suits alternate black and red in the hand so that neighbouring suits are
# told apart at a glance; the view already orders each suit by strength.
HAND_SUIT_ORDER = "SHCD"


@dataclass(frozen=True)
class ProjectChoice(Fields):
    """One project of a declaration on offer: its name and its cards."""

    label: str
    cards: tuple[CardFace, ...]


@dataclass(frozen=True)
class ActionButton(Fields):
    """One legal action offered as a button; ``action`` is the JSON it posts."""

    label: str
    action: str
    style: str = ""
    # What the choice means, shown under its name (a newcomer's help).
    hint: str = ""
    # A declaration's projects, each drawn with its cards (the label says the same in words).
    projects: tuple[ProjectChoice, ...] = ()


@dataclass(frozen=True)
class ActionGroup(Fields):
    """Variants of one call, such as Double open or locked."""

    label: str
    buttons: tuple[ActionButton, ...]


@dataclass(frozen=True)
class HandCard(Fields):
    """A card of the viewer's hand; ``action`` is set when it may be played now."""

    face: CardFace
    action: str | None = None
    baloot_action: str | None = None
    key: int | None = None


@dataclass(frozen=True)
class Declaration(Fields):
    """One declared project: its type at once, its cards once the first trick is over."""

    label: str
    cards: tuple[CardFace, ...] | None


@dataclass
class SeatPanel:
    """One chair at the table as the viewer sees it."""

    number: int
    position: str
    name: str
    team: str
    is_bot: bool = False
    away: bool = False
    is_me: bool = False
    is_partner: bool = False
    count: int = 0
    is_turn: bool = False
    is_dealer: bool = False
    bid: str = ""
    declarations: tuple[Declaration, ...] = ()
    declared: bool = False
    baloot: bool = False
    played: CardFace | None = None
    is_leader: bool = False
    # The countdown ring of the seat to act: milliseconds left, and the turn's length.
    ring_ms: int | None = None
    ring_total_ms: int | None = None

    @property
    def backs(self) -> range:
        """One card back per card held, for a seat that is not the viewer's."""
        return range(0 if self.is_me else self.count)


@dataclass(frozen=True)
class PlayedCard(Fields):
    """A card on the table with the chair it came from."""

    position: str
    name: str
    face: CardFace
    winning: bool = False
    led: bool = False


@dataclass(frozen=True)
class Contract(Fields):
    """The contract in play, in words: its type, its trump, who bought it and its calls."""

    type: str
    trump: str
    trump_name: str
    trump_suit: str
    bidder: str
    multiplier: int
    multiplier_label: str
    lock: bool
    gahwa: bool


@dataclass(frozen=True)
class LogLine(Fields):
    """One bid or call of the current deal."""

    name: str
    text: str
    auto: bool


@dataclass(frozen=True)
class SeatInfo:
    """Who occupies a seat: the only facts the table needs beyond the view."""

    name: str
    is_bot: bool = False
    away: bool = False


@dataclass
class Table:
    """Everything the table partials print."""

    seq: int
    phase: str
    phase_label: str
    me: int | None
    my_team: str
    us_label: str
    them_label: str
    seats: dict[str, SeatPanel]
    status: str
    my_turn: bool
    # The viewer's turn to play a card: a card that may not be played is then
    # a disabled button, a picture otherwise.
    playing_now: bool
    turn_name: str
    deadline: datetime | None
    seconds_left: int | None
    ms_left: int | None
    faceup: CardFace | None
    contract: Contract | None
    score_us: int
    score_them: int
    tricks_us: int
    tricks_them: int
    points_us: int
    points_them: int
    hand: tuple[HandCard, ...]
    bid_buttons: tuple[ActionButton, ...]
    trump_buttons: tuple[ActionButton, ...]
    call_buttons: tuple[ActionButton, ...]
    call_groups: tuple[ActionGroup, ...]
    declare_buttons: tuple[ActionButton, ...]
    sawa_button: ActionButton | None
    has_baloot: bool
    trick: tuple[PlayedCard, ...]
    # The trick just completed, held in the middle until the next card is led.
    trick_done: tuple[PlayedCard, ...]
    trick_key: str
    trick_winner_position: str
    last_trick: tuple[PlayedCard, ...]
    last_trick_winner: str
    bids: Sequence[LogLine]
    calls: Sequence[LogLine]
    result: ResultPanel | None
    redeal_name: str
    redeal_cards: tuple[CardFace, ...]
    sawa_name: str
    sawa_cards: tuple[CardFace, ...]
    timer_notice: str
    sheet: Sequence[SheetRow]
    winner: str | None
    we_won: bool
    match_over: bool


# What the views of one state, with the same seats and in one language, have
# in common: the pieces made from the public keys of a view (all but
# ``rules.view.OWN``) and the viewer's chair or side alone, made once for all.
Shared = dict[Hashable, Any]


def _once(shared: Shared, key: Hashable, make: Callable[[], Any]) -> Any:
    """``shared[key]``, made by ``make()`` the first time; what is shared is never changed."""
    found = shared.get(key, _MISSING)
    if found is _MISSING:
        # Two threads may both make it: either's is right.
        found = shared.setdefault(key, make())
    return found


_MISSING = object()


@dataclass(frozen=True)
class _Common:
    """What every viewer of one state sees alike."""

    names: dict[int, str]
    phase_label: str
    # Each seat's panel but for where and whose it is, by number.
    seats: dict[int, dict[str, Any]]
    # The status line of everyone but the seat to act.
    status: str
    turn_name: str
    faceup: CardFace | None
    contract: Contract | None
    bids: Sequence[LogLine]
    calls: Sequence[LogLine]
    last_trick_winner: str
    redeal_name: str
    redeal_cards: tuple[CardFace, ...]
    sawa_name: str
    sawa_cards: tuple[CardFace, ...]
    # The finished deals' results in words: what the score sheet is kept by.
    results: str


@dataclass(frozen=True)
class _Placed:
    """The cards on the table as seen from one chair."""

    trick: tuple[PlayedCard, ...]
    held: tuple[PlayedCard, ...]
    trick_winner_position: str
    last_trick: tuple[PlayedCard, ...]


@dataclass(frozen=True)
class _Sided:
    """What depends on the viewer's side only: a team's, or a spectator's."""

    team_labels: dict[str, str]
    # The badge of each team's seats.
    team_names: dict[str, str]
    result: ResultPanel | None
    sheet: Sequence[SheetRow]


def build_table(
    view: View,
    seats: Mapping[int, SeatInfo],
    *,
    seq: int,
    deadline: datetime | None = None,
    now: datetime | None = None,
    turn_seconds: float | None = None,
    shared: Shared | None = None,
    results_shown: str | None = None,
) -> Table:
    """The printable table for the viewer of ``view`` (a seat, or a spectator).

    ``turn_seconds`` is how long the seat to act had in all, for its countdown ring.
    ``shared`` holds what is made for every view of the same state, with the
    same ``seats``, in the active language (kept by the caller for one
    version and language): the public pieces are made once for all of them.
    Without it everything is made afresh, the result panel and the score
    sheet too. ``results_shown`` is ``repr(view["results"])``, when the
    caller knows it already: the result panel and the score sheet are kept by it.
    """
    language = get_language()
    keep = shared is not None
    if shared is None:
        shared = {}
    me = view["seat"]
    my_team = view["team"] or "A"
    bottom = me or 1
    common: _Common = _once(
        shared, "common", lambda: _common(_public(view), seats, language, results_shown)
    )
    placed: _Placed = _once(
        shared,
        ("placed", bottom),
        lambda: _placed(_public(view), common.names, bottom, language),
    )
    side = (bool(me), my_team)
    # A side's labels, result panel and score sheet change only when a deal
    # ends: kept across readings, by the results in words and the names.
    sided: _Sided = _once(
        shared,
        ("sided", *side),
        lambda: _kept_panel(
            ("sided", common.results, tuple(common.names.items()), *side),
            language,
            lambda: _sided(_public(view), common, *side, language, keep=keep),
            keep=keep,
        ),
    )
    names = common.names
    panels = _seat_panels(common, sided, me, bottom)
    turn = view["turn"]
    legal = view["legal"]
    them = "B" if my_team == "A" else "A"
    phase = view["phase"]
    seconds_left = ms_left = None
    if deadline is not None and now is not None and turn is not None:
        # Milliseconds left rather than a clock time, so a client whose
        # clock is off still counts down correctly.
        ms_left = max(0, int((deadline - now).total_seconds() * 1000))
        seconds_left = math.ceil(ms_left / 1000)
        if turn_seconds:
            for panel in panels:
                if panel.is_turn:
                    panel.ring_ms = ms_left
                    panel.ring_total_ms = max(ms_left, int(turn_seconds * 1000))
    bid_buttons, trump_buttons = _bid_buttons(view, legal)
    call_buttons, call_groups = _call_buttons(legal)
    my_turn = bool(me) and turn == me
    team_labels = sided.team_labels
    return Table(
        seq=seq,
        phase=phase,
        phase_label=common.phase_label,
        me=me,
        my_team=my_team,
        us_label=team_labels[my_team],
        them_label=team_labels[them],
        seats={panel.position: panel for panel in panels},
        status=_status(view["phase"], turn, names, mine=True) if my_turn else common.status,
        my_turn=my_turn,
        playing_now=my_turn and phase == "playing",
        turn_name=common.turn_name,
        deadline=deadline if seconds_left is not None else None,
        seconds_left=seconds_left,
        ms_left=ms_left,
        faceup=common.faceup,
        contract=common.contract,
        score_us=view["score"][my_team],
        score_them=view["score"][them],
        tricks_us=view["tricks_won"][my_team],
        tricks_them=view["tricks_won"][them],
        points_us=view["card_points"][my_team],
        points_them=view["card_points"][them],
        hand=_hand(view["hand"], legal, language),
        bid_buttons=bid_buttons,
        trump_buttons=trump_buttons,
        call_buttons=call_buttons,
        call_groups=call_groups,
        declare_buttons=_declare_buttons(legal, language),
        sawa_button=_sawa_button(legal),
        has_baloot=any(a.get("baloot") for a in legal),
        trick=placed.trick,
        trick_done=placed.held,
        trick_key=(
            f"{len(view['results']) + 1}-{sum(view['tricks_won'].values())}" if placed.held else ""
        ),
        trick_winner_position=placed.trick_winner_position,
        last_trick=placed.last_trick,
        last_trick_winner=common.last_trick_winner,
        bids=common.bids,
        calls=common.calls,
        result=sided.result,
        redeal_name=common.redeal_name,
        redeal_cards=common.redeal_cards,
        sawa_name=common.sawa_name,
        sawa_cards=common.sawa_cards,
        timer_notice=_timer_notice(view.get("timed_out")),
        sheet=sided.sheet,
        winner=view["winner"],
        we_won=bool(me) and view["winner"] == my_team,
        match_over=phase == "match_over",
    )


def _public(view: View) -> View:
    """``view`` without what it holds for its own viewer: all a shared piece may read."""
    return {key: value for key, value in view.items() if key not in OWN}


def _common(
    view: View, seats: Mapping[int, SeatInfo], language: str | None, results: str | None
) -> _Common:
    """The pieces of the table made from the public part of ``view`` alone."""
    names = {n: seats[n].name if n in seats else str(n) for n in (1, 2, 3, 4)}
    phase = view["phase"]
    turn = view["turn"]
    last = view["last_trick"]
    redeal = view["redeal"]
    sawa = view.get("sawa")
    return _Common(
        names=names,
        phase_label=str(labels.PHASES.get(phase, phase)),
        seats=_seat_bases(view, seats, names, language),
        status=_status(phase, turn, names, mine=False),
        turn_name=names[turn] if turn else "",
        faceup=face_in(view["faceup"], language) if view["faceup"] else None,
        contract=_contract(view["contract"], names),
        bids=Shown(_bid_line(b, names, language) for b in view["bids"]),
        calls=Shown(
            LogLine(names[c["seat"]], str(labels.CALLS.get(c["call"], c["call"])), False)
            for c in view["calls"]
        ),
        results=repr(view["results"]) if results is None else results,
        last_trick_winner=names[last["winner"]] if last else "",
        # D7: the hand that asked for a redeal is shown to everyone.
        redeal_name=names[redeal["seat"]] if redeal else "",
        redeal_cards=tuple(face_in(c, language) for c in redeal["cards"]) if redeal else (),
        # D26: the claimer of a Sawa lays down the cards that won it.
        sawa_name=names[sawa["seat"]] if sawa else "",
        sawa_cards=tuple(face_in(c, language) for c in sawa["cards"]) if sawa else (),
    )


def _placed(view: View, names: Mapping[int, str], bottom: int, language: str | None) -> _Placed:
    """The trick, the trick just won and the last trick, seen from the chair ``bottom``."""
    last = view["last_trick"]
    # The card winning the trick is marked once two are down.
    winning = view["winning"] if len(view["trick"]) >= 2 else None
    trick = [
        _played(c, names, bottom, language, led=i == 0, winning=c["seat"] == winning)
        for i, c in enumerate(view["trick"])
    ]
    held = _held_trick(view, names, bottom, language)
    return _Placed(
        trick=tuple(trick),
        held=held,
        trick_winner_position=position_of(last["winner"], bottom) if held else "",
        last_trick=tuple(_played(c, names, bottom, language) for c in last["cards"])
        if last
        else (),
    )


def _sided(
    view: View, common: _Common, seated: bool, my_team: str, language: str | None, *, keep: bool
) -> _Sided:
    """The labels, result panel and score sheet of a seat of ``my_team``, or a spectator's."""
    them = "B" if my_team == "A" else "A"
    team_labels = {
        my_team: _("Us") if seated else _("Team A"),
        them: _("Them") if seated else _("Team B"),
    }
    if seated:
        team_names = {my_team: _("Us"), them: _("Them")}
    else:
        team_names = {"A": _("Team A"), "B": _("Team B")}
    results = view["results"]
    names = common.names
    return _Sided(
        team_labels=team_labels,
        team_names=team_names,
        result=_result_panel(results, names, my_team, language, spectator=not seated, keep=keep),
        sheet=_score_sheet(
            results, common.results, names, my_team, team_labels, language, keep=keep
        ),
    )


# Result panels and score sheets made, by everything they are made from: the
# same few for every viewer of a match until its next deal ends.
PANELS_KEPT = 2048
_panels: Kept[Any] = Kept(PANELS_KEPT)


def _kept_panel(
    key: tuple[Any, ...], language: str | None, make: Callable[[], Any], *, keep: bool
) -> Any:
    """What ``make()`` returns, made once per ``key`` and ``language`` (afresh unless ``keep``)."""
    if not keep:
        return make()
    return _panels.get_or_make((language, *key), make)


def forget_panels() -> None:
    """Drop every kept result panel and score sheet."""
    _panels.clear()


def _result_panel(
    results: Sequence[Mapping[str, Any]],
    names: Mapping[int, str],
    us: str,
    language: str | None,
    *,
    spectator: bool,
    keep: bool,
) -> ResultPanel | None:
    """``result_panel``, kept: it reads the last deal's result and how many deals there were."""
    if not results:
        return None
    key = ("result", len(results), repr(results[-1]), tuple(names.items()), us, spectator)
    return _kept_panel(
        key, language, lambda: result_panel(results, names, us, spectator=spectator), keep=keep
    )


def _score_sheet(
    results: Sequence[Mapping[str, Any]],
    shown: str,
    names: Mapping[int, str],
    perspective: str,
    team_labels: Mapping[str, str],
    language: str | None,
    *,
    keep: bool,
) -> list[SheetRow]:
    """``score_sheet``, kept; ``shown`` is the repr of ``results``."""
    key = ("sheet", shown, tuple(names.items()), perspective, tuple(team_labels.items()))
    return _kept_panel(
        key,
        language,
        lambda: Shown(score_sheet(results, names, perspective, team_labels)),
        keep=keep,
    )


def position_of(seat: int, bottom: int) -> str:
    """Where ``seat`` sits on the screen of the viewer at ``bottom``."""
    return POSITIONS[(seat - bottom) % 4]


def action_json(action: Mapping[str, Any]) -> str:
    """The JSON a button posts: the action without its seat, which the server knows."""
    return json.dumps({k: v for k, v in action.items() if k != "seat"}, separators=(",", ":"))


def _seat_bases(
    view: View, seats: Mapping[int, SeatInfo], names: Mapping[int, str], language: str | None
) -> dict[int, dict[str, Any]]:
    """Each seat's panel, by number, but for where it sits and whose it is."""
    last_bid: dict[int, str] = {}
    # Bid bubbles belong to the bidding: once the contract is made it shows in the status bar.
    if view["phase"] == "bidding":
        for bid in view["bids"]:
            last_bid[bid["seat"]] = _bid_text(bid, language)
    leader = view["leader"] if view["phase"] == "playing" else None
    played = {c["seat"]: face_in(c["card"], language) for c in view["trick"]}
    bases = {}
    for number in (1, 2, 3, 4):
        info = seats.get(number, SeatInfo(names[number]))
        declared = view["declarations"][str(number)]
        bases[number] = {
            "number": number,
            "name": names[number],
            "is_bot": info.is_bot,
            "away": info.away,
            "count": view["hand_counts"][str(number)],
            "is_turn": view["turn"] == number,
            "is_dealer": view["dealer"] == number,
            "bid": last_bid.get(number, ""),
            "declarations": tuple(_declaration(p, language) for p in declared or ()),
            "declared": declared is not None,
            "baloot": number in view["baloot"],
            "played": played.get(number),
            "is_leader": number == leader,
        }
    return bases


def _seat_panels(common: _Common, sided: _Sided, me: int | None, bottom: int) -> list[SeatPanel]:
    """The four chairs as the viewer at ``me`` (None for a spectator, who sits at 1) sees them."""
    return [
        SeatPanel(
            **base,
            position=position_of(number, bottom),
            team=sided.team_names["A" if number % 2 else "B"],
            is_me=number == me,
            is_partner=me is not None and number != me and (number - me) % 2 == 0,
        )
        for number, base in common.seats.items()
    ]


def _declaration(project: Mapping[str, Any], language: str | None) -> Declaration:
    cards = project["cards"]
    return Declaration(
        label=str(labels.PROJECTS.get(project["project"], project["project"])),
        cards=tuple(face_in(c, language) for c in cards) if cards else None,
    )


def _status(phase: str, turn: int | None, names: Mapping[int, str], *, mine: bool) -> str:
    """The status line; ``mine`` for the seat to act."""
    if phase == "match_over":
        return _("The match is over.")
    if turn is None:
        return str(labels.PHASES.get(phase, phase))
    if mine:
        prompts = {
            "bidding": _("Your turn to bid."),
            "doubling": _("Your call: double or pass."),
            "declaring": _("Declare your projects, or none."),
            "playing": _("Your turn to play a card."),
        }
        return prompts.get(phase, _("Your turn."))
    return _("Waiting for %(name)s.") % {"name": names[turn]}


def _contract(contract: Mapping[str, Any] | None, names: Mapping[int, str]) -> Contract | None:
    if contract is None:
        return None
    trump = contract["trump"]
    multiplier = contract["multiplier"]
    return Contract(
        type=str(labels.CONTRACTS.get(contract["type"], contract["type"])),
        trump=labels.SUIT_SYMBOLS[trump] if trump else "",
        trump_name=str(labels.SUITS[trump]) if trump else "",
        trump_suit=trump or "",
        bidder=names[contract["bidder"]],
        multiplier=multiplier,
        multiplier_label=str(labels.MULTIPLIERS[multiplier]) if multiplier > 1 else "",
        lock=contract["lock"],
        gahwa=contract["gahwa"],
    )


def _hand(
    cards: Sequence[str], legal: Sequence[Mapping[str, Any]], language: str | None
) -> tuple[HandCard, ...]:
    """The viewer's hand, each card with the action that plays it now, if any.

    The same hand is made once (per language) and shared by every later
    picture until a card of it is played or the cards it may play change:
    found again, it is also hashed again at once (``Shown``).
    """
    plays = tuple(tuple(a.items()) for a in legal if "play" in a)
    return _hand_of(tuple(cards), plays, language)


@lru_cache(maxsize=4096)
def _hand_of(
    cards: tuple[str, ...], legal: tuple[tuple[tuple[str, Any], ...], ...], language: str | None
) -> Shown[HandCard]:
    actions = [dict(items) for items in legal]
    plays = {a["play"]: a for a in actions if not a.get("baloot")}
    baloots = {a["play"]: a for a in actions if a.get("baloot")}
    ordered = sorted(cards, key=lambda c: HAND_SUIT_ORDER.index(c[1]))
    out = []
    key = 0
    for code in ordered:
        play = plays.get(code)
        if play is not None:
            key += 1
        out.append(
            HandCard(
                face=face_in(code, language),
                action=action_json(play) if play else None,
                baloot_action=action_json(baloots[code]) if code in baloots else None,
                key=key if play else None,
            )
        )
    return Shown(out)


def _suit_text(suit: str) -> str:
    return f"{labels.SUIT_SYMBOLS[suit]} {labels.SUITS[suit]}"


def _bid_buttons(
    view: View, legal: Sequence[Mapping[str, Any]]
) -> tuple[tuple[ActionButton, ...], tuple[ActionButton, ...]]:
    """The bids on offer, each saying what it means (the trump it makes, who takes the card)."""
    bids = [a for a in legal if "bid" in a or "redeal" in a]
    choosing = any(a.get("bid") == "confirm" for a in bids)
    faceup = view["faceup"][1] if view["faceup"] else None
    buttons: list[ActionButton] = []
    trumps: list[ActionButton] = []
    for action in bids:
        if "redeal" in action:
            buttons.append(
                ActionButton(
                    _("Redeal (zero-point hand)"),
                    action_json(action),
                    "alt",
                    _("Only sevens, eights and nines: the same dealer deals again"),
                )
            )
            continue
        bid = action["bid"]
        if bid == "confirm" and "trump" in action:
            suit = action["trump"]
            trumps.append(
                ActionButton(
                    _suit_text(suit),
                    action_json(action),
                    f"suit-{suit}",
                    _("Hokum with %(suit)s as trump") % {"suit": labels.SUITS[suit]},
                )
            )
            continue
        label = str(labels.BIDS[bid])
        hint = ""
        if bid == "hokum" and view["bid_round"] == 2:
            label = str(labels.SECOND_HOKUM)
            if faceup:
                hint = _("You name the trump: any suit but %(suit)s") % {"suit": _suit_text(faceup)}
        elif bid in ("hokum", "confirm") and faceup:
            label = f"{label} {labels.SUIT_SYMBOLS[faceup]}"
            hint = _("Trump: %(suit)s") % {"suit": _suit_text(faceup)}
        elif bid == "sun" and choosing:
            label = _("Switch to Sun")
            hint = _("No trump instead of Hokum")
        elif bid == "sun":
            hint = _("No trump; you take the face-up card")
        elif bid == "ashkal":
            hint = _("Your partner takes the face-up card; played as Sun")
        buttons.append(
            ActionButton(label, action_json(action), "pass" if bid == "pass" else "", hint)
        )
    return tuple(buttons), tuple(trumps)


# What each raise multiplies the deal by (D13, D14).
CALL_TIMES = {"double": 2, "triple": 3, "four": 4}


def _call_hint(call: str) -> str:
    if call == "gahwa":
        return _("The winner of the deal takes the match")
    if call in CALL_TIMES:
        return _("The deal counts %(times)s") % {
            "times": f"\N{MULTIPLICATION SIGN}{CALL_TIMES[call]}"
        }
    return ""


def _call_buttons(
    legal: Sequence[Mapping[str, Any]],
) -> tuple[tuple[ActionButton, ...], tuple[ActionGroup, ...]]:
    """The multiplier calls on offer; a raise that may be locked comes as open and locked."""
    singles: list[ActionButton] = []
    groups: dict[str, list[ActionButton]] = {}
    for action in legal:
        if "double" not in action:
            continue
        call = action["double"]
        label = str(labels.CALLS[call])
        if "lock" in action:
            locked = bool(action["lock"])
            variant = (
                pgettext("multiplier call", "Locked")
                if locked
                else pgettext("multiplier call", "Open")
            )
            legend = (
                f"{label} \N{MULTIPLICATION SIGN}{CALL_TIMES[call]}"
                if call in CALL_TIMES
                else label
            )
            groups.setdefault(legend, []).append(
                ActionButton(
                    _("%(call)s, %(variant)s") % {"call": label, "variant": variant},
                    action_json(action),
                    "locked" if locked else "open",
                    _("No trump lead while holding another suit")
                    if locked
                    else _("Any card may lead"),
                )
            )
        else:
            singles.append(
                ActionButton(
                    label, action_json(action), "pass" if call == "pass" else "", _call_hint(call)
                )
            )
    return tuple(singles), tuple(ActionGroup(label, tuple(b)) for label, b in groups.items())


def _declare_buttons(
    legal: Sequence[Mapping[str, Any]], language: str | None
) -> tuple[ActionButton, ...]:
    """The declarations on offer, the best first and preselected, "No projects" last."""
    options = [a for a in legal if "declare" in a]
    if not options:
        return ()
    options.sort(key=lambda a: -sum(PROJECT_VALUES[p["project"]] for p in a["declare"]))
    buttons: list[ActionButton] = []
    for number, action in enumerate(options):
        projects = action["declare"]
        if not projects:
            buttons.append(ActionButton(_("No projects"), action_json(action), "pass"))
            continue
        parts = []
        for project in projects:
            # Left-to-right isolates (U+2066 ... U+2069) keep each card's rank
            # before its suit inside right-to-left text.
            cards = " ".join(
                f"\u2066{face_in(c, language).rank}{face_in(c, language).symbol}\u2069"
                for c in project["cards"]
            )
            parts.append(
                _("%(project)s: %(cards)s")
                % {
                    "project": labels.PROJECTS.get(project["project"], project["project"]),
                    "cards": cards,
                }
            )
        buttons.append(
            ActionButton(
                " + ".join(parts),
                action_json(action),
                "preselected" if number == 0 else "alt",
                _("Your best declaration") if number == 0 and len(options) > 2 else "",
                tuple(
                    ProjectChoice(
                        str(labels.PROJECTS.get(p["project"], p["project"])),
                        tuple(face_in(c, language) for c in p["cards"]),
                    )
                    for p in projects
                ),
            )
        )
    return tuple(buttons)


def _sawa_button(legal: Sequence[Mapping[str, Any]]) -> ActionButton | None:
    for action in legal:
        if action.get("sawa"):
            return ActionButton(_("Sawa"), action_json(action), "sawa")
    return None


def _played(
    card: Mapping[str, Any],
    names: Mapping[int, str],
    bottom: int,
    language: str | None,
    *,
    led: bool = False,
    winning: bool = False,
) -> PlayedCard:
    return PlayedCard(
        position_of(card["seat"], bottom),
        names[card["seat"]],
        face_in(card["card"], language),
        winning=winning,
        led=led,
    )


def _held_trick(
    view: View, names: Mapping[int, str], bottom: int, language: str | None
) -> tuple[PlayedCard, ...]:
    """The trick just completed, while no card of the next one is down.

    It stays in the middle, its winning card marked, until the next lead; at
    the end of a deal the eighth trick stays with the result. A deal ended by
    Sawa shows the claimer's cards instead.
    """
    last = view["last_trick"]
    if last is None or view["trick"] or view.get("sawa"):
        return ()
    if view["phase"] not in ("playing", "round_over", "match_over"):
        return ()
    return tuple(
        _played(c, names, bottom, language, led=i == 0, winning=c["seat"] == last["winner"])
        for i, c in enumerate(last["cards"])
    )


def _timer_notice(action: Mapping[str, Any] | None) -> str:
    """What the timer chose for the viewer (D17), and what more missed turns lead to."""
    if not action:
        return ""
    warning = _("After %(count)s missed turns in a row, a bot takes over your seat.") % {
        "count": MISSED_TURNS_BEFORE_AWAY
    }
    if "play" in action:
        done = _("Time ran out: %(card)s was played for you.") % {
            "card": card_face(action["play"]).label
        }
        return f"{done} {warning}"
    if "bid" in action:
        choice = _bid_text(action, get_language())
    elif "double" in action:
        choice = str(labels.CALLS.get(action["double"], action["double"]))
    else:
        choice = _("No projects")
    done = _("Time ran out: “%(choice)s” was chosen for you.") % {"choice": choice}
    return f"{done} {warning}"


def _bid_text(bid: Mapping[str, Any], language: str | None) -> str:
    return _bid_words(bid["bid"], bid.get("trump"), language)


@lru_cache(maxsize=256)
def _bid_words(bid: str, trump: str | None, language: str | None) -> str:
    # Every picture lists the deal's bids: each is put in words once per language.
    text = str(labels.BIDS.get(bid, bid))
    if trump:
        text += f" {labels.SUIT_SYMBOLS[trump]}"
    return text


def _bid_line(bid: Mapping[str, Any], names: Mapping[int, str], language: str | None) -> LogLine:
    return LogLine(names[bid["seat"]], _bid_text(bid, language), bool(bid.get("auto")))
