"""What the replay viewer prints for one step of a finished deal.

Everything comes from the engine: each seat's hand is ``view_for(state,
seat)["hand"]`` and the rest of the table ``view_for(state, None)`` for the
state that ``games.history.replay`` folded up to the step. All four hands are shown
because the deal is over; ``games.history.replay`` returns nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import rules
from games.display import labels
from games.display.cards import CardFace, card_face
from games.display.result_panel import ResultPanel, result_panel
from games.display.score_sheet import describe_contract
from games.history.deal_proof import DealProof, deal_proof
from games.history.replay import DealReplay

# The replay sits the viewer in seat 1's chair; the next seat in turn order
# is on its right (play is counterclockwise, notation.md), the partner opposite.
POSITIONS = {1: "bottom", 2: "right", 3: "top", 4: "left"}

StepUrl = Callable[[int], str]


@dataclass(frozen=True)
class ProjectLine:
    """A declared project with its cards."""

    label: str
    cards: list[CardFace] | None


@dataclass(frozen=True)
class ReplaySeat:
    """One chair of the replay: its hand face up and what it said and played."""

    number: int
    position: str
    name: str
    team: str
    hand: list[CardFace]
    is_dealer: bool
    is_turn: bool
    is_taker: bool
    declared: bool
    declarations: list[ProjectLine]
    baloot: bool
    played: CardFace | None

    @property
    def codes(self) -> str:
        """The hand as notation cards, space-separated (for the page's data attributes)."""
        return " ".join(face.code for face in self.hand)


@dataclass(frozen=True)
class ActionPiece:
    """Part of an action in words: a text ("Fifty", "Hokum ♥"), then the cards it names."""

    text: str
    cards: list[CardFace]


@dataclass(frozen=True)
class ActionLine:
    """One action of the deal, linking to the step right after it."""

    step: int
    url: str
    name: str
    pieces: list[ActionPiece]
    auto: bool
    current: bool
    future: bool


@dataclass(frozen=True)
class ActionGroup:
    """The actions of one part of the deal: bidding, doubling, projects or a trick."""

    title: str
    lines: list[ActionLine]


@dataclass(frozen=True)
class TrickLink:
    """A jump to the step that completes a trick."""

    number: int
    url: str
    winner: str
    current: bool


@dataclass(frozen=True)
class PlayedCard:
    """A card on the table and who played it."""

    seat: int
    position: str
    name: str
    face: CardFace


@dataclass(frozen=True)
class StepLinks:
    """The first, previous, next and last steps, "" where there is none; ``start`` always."""

    first: str
    prev: str
    next: str
    last: str
    start: str


@dataclass(frozen=True)
class ReplayStep:
    """Everything one step of the replay shows."""

    number: int
    step: int
    last_step: int
    at_end: bool
    links: StepLinks
    status: str
    seats: dict[str, ReplaySeat]
    trick: list[PlayedCard]
    last_trick: list[PlayedCard]
    last_trick_winner: str
    faceup: CardFace
    contract: str
    bidder: str
    score_before: dict[str, int]
    card_points: dict[str, int]
    tricks_won: dict[str, int]
    groups: list[ActionGroup]
    tricks: list[TrickLink]
    result: ResultPanel | None
    proof: DealProof
    deck: list[CardFace]


def replay_step(
    replay: DealReplay, step: int, names: Mapping[int, str], step_url: StepUrl
) -> ReplayStep:
    """The printable step ``step`` of ``replay``; raises IndexError outside 0..last_step."""
    state = replay.state_at(step)
    public = rules.view_for(state, None)
    start = replay.states[0]
    last = replay.last_step
    contract = public["contract"]
    played = {card["seat"]: card_face(card["card"]) for card in public["trick"]}
    seats = {}
    for number, position in POSITIONS.items():
        declared = public["declarations"][str(number)]
        seats[position] = ReplaySeat(
            number=number,
            position=position,
            name=names[number],
            team=_("Team A") if number % 2 else _("Team B"),
            hand=[card_face(c) for c in rules.view_for(state, number)["hand"]],
            is_dealer=public["dealer"] == number,
            is_turn=public["turn"] == number,
            is_taker=bool(contract) and contract["taker"] == number,
            declared=declared is not None,
            declarations=[_project(p) for p in declared or ()],
            baloot=number in public["baloot"],
            played=played.get(number),
        )
    last_trick = public["last_trick"]
    current_trick = _trick_of(replay, step)
    return ReplayStep(
        number=replay.number,
        step=step,
        last_step=last,
        at_end=step == last,
        links=StepLinks(
            first=step_url(0) if step > 0 else "",
            prev=step_url(step - 1) if step > 0 else "",
            next=step_url(step + 1) if step < last else "",
            last=step_url(last) if step < last else "",
            start=step_url(0),
        ),
        status=_status(public, names),
        seats=seats,
        trick=[_played(card, names) for card in public["trick"]],
        last_trick=[_played(card, names) for card in last_trick["cards"]] if last_trick else [],
        last_trick_winner=names[last_trick["winner"]] if last_trick else "",
        faceup=card_face(replay.deck[20]),
        contract=describe_contract(contract) if contract else "",
        bidder=names[contract["bidder"]] if contract else "",
        score_before=start.score,
        card_points=public["card_points"],
        tricks_won=public["tricks_won"],
        groups=_groups(replay, step, names, step_url),
        tricks=[
            TrickLink(
                number=mark.number,
                url=step_url(mark.step),
                winner=names[mark.winner],
                current=current_trick == mark.number,
            )
            for mark in replay.tricks()
        ],
        # The table's own result panel, read as a spectator (team A, team B).
        result=result_panel(public["results"], names, "A", spectator=True)
        if step == last
        else None,
        proof=deal_proof(replay.deal, replay.deck),
        deck=[card_face(code) for code in replay.deck],
    )


def describe_action(action: Mapping[str, Any], before: rules.State) -> list[ActionPiece]:
    """An action in words and cards, such as "Hokum ♥", "Double, locked" or K♥ "· Baloot"."""
    if "bid" in action:
        bid = action["bid"]
        if bid == "hokum" and before.bid_round == 2:
            text = str(labels.SECOND_HOKUM)
        else:
            text = str(labels.BIDS.get(bid, bid))
        if action.get("trump"):
            text += f" {labels.SUIT_SYMBOLS[action['trump']]}"
        return [ActionPiece(text, [])]
    if "redeal" in action:
        return [ActionPiece(_("Redeal (zero-point hand)"), [])]
    if "double" in action:
        call = str(labels.CALLS.get(action["double"], action["double"]))
        if "lock" not in action:
            return [ActionPiece(call, [])]
        variant = (
            pgettext("multiplier call", "Locked")
            if action["lock"]
            else pgettext("multiplier call", "Open")
        )
        return [ActionPiece(_("%(call)s, %(variant)s") % {"call": call, "variant": variant}, [])]
    if "declare" in action:
        if not action["declare"]:
            return [ActionPiece(_("No projects"), [])]
        return [
            ActionPiece(
                ("+ " if index else "") + str(labels.PROJECTS.get(p["project"], p["project"])),
                [card_face(c) for c in p["cards"]],
            )
            for index, p in enumerate(action["declare"])
        ]
    if "play" in action:
        pieces = [ActionPiece("", [card_face(action["play"])])]
        if action.get("baloot"):
            pieces.append(ActionPiece("· " + _("Baloot"), []))
        return pieces
    return [ActionPiece(_("Sawa: claims every remaining trick"), [])]


def _project(project: Mapping[str, Any]) -> ProjectLine:
    cards = project["cards"]
    return ProjectLine(
        label=str(labels.PROJECTS.get(project["project"], project["project"])),
        cards=[card_face(c) for c in cards] if cards else None,
    )


def _played(card: Mapping[str, Any], names: Mapping[int, str]) -> PlayedCard:
    seat = card["seat"]
    return PlayedCard(seat, POSITIONS[seat], names[seat], card_face(card["card"]))


def _status(public: Mapping[str, Any], names: Mapping[int, str]) -> str:
    turn = public["turn"]
    if turn is None:
        return _("The deal is over.")
    prompts = {
        "bidding": _("%(name)s to bid."),
        "doubling": _("%(name)s to double or pass."),
        "declaring": _("%(name)s to declare projects."),
        "playing": _("%(name)s to play."),
    }
    return prompts[public["phase"]] % {"name": names[turn]}


def _groups(
    replay: DealReplay, step: int, names: Mapping[int, str], step_url: StepUrl
) -> list[ActionGroup]:
    titles = {
        rules.Phase.BIDDING: _("Bidding"),
        rules.Phase.DOUBLING: _("Doubling"),
        rules.Phase.DECLARING: _("Projects"),
    }
    groups: list[ActionGroup] = []
    key: object = None
    for number, action in enumerate(replay.actions, 1):
        before = replay.states[number - 1]
        if before.phase is rules.Phase.PLAYING:
            trick = len(before.tricks) + 1
            this_key: object = ("trick", trick)
            title = _("Trick %(number)s") % {"number": trick}
        else:
            this_key = before.phase
            title = titles[before.phase]
        if this_key != key:
            groups.append(ActionGroup(title, []))
            key = this_key
        groups[-1].lines.append(
            ActionLine(
                step=number,
                url=step_url(number),
                name=names[action["seat"]],
                pieces=describe_action(action, before),
                auto=bool(action.get("auto")),
                current=number == step,
                future=number > step,
            )
        )
    return groups


def _trick_of(replay: DealReplay, step: int) -> int | None:
    """The trick that the action leading to ``step`` belongs to, if it is a card play."""
    if step == 0:
        return None
    before = replay.states[step - 1]
    return len(before.tricks) + 1 if before.phase is rules.Phase.PLAYING else None
