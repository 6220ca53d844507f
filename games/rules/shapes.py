"""The shapes of the JSON-safe dicts the engine builds and hands out.

Typing only: at run time each is a plain ``dict``, as the notation and the
site's callers have always had them (``notation.md`` defines the action).
Values keep their notation form: cards as two-character strings, teams as
"A" and "B", seats as ints 1-4.

The engine builds its dicts as these shapes, so the type checker holds every
key it writes and reads to them. Four doors hand them on typed as plain
``dict[str, Any]``: ``legal_actions`` and ``forced_action`` (Actions),
``view_for`` (a View) and ``public_history`` (a History), because the site's
callers hold and change them as plain dicts, which a TypedDict is not to the
type checker. ``action_of``, ``available_projects``, ``Contract.to_json``,
``RoundResult.contract`` and ``State.deal_actions`` hand out the shapes
themselves.
"""

# No ``from __future__ import annotations`` here: Python 3.11 reads Required
# and NotRequired in a TypedDict only from evaluated annotations (so that
# ``__required_keys__`` is right, which the shape tests rely on).
from typing import Any, NotRequired, Required, TypedDict


class ProjectItem(TypedDict):
    """One declared project in an action: its kind and its cards."""

    project: str
    cards: list[str]


class Action(TypedDict, total=False):
    """A notation action: a seat and exactly one verb (bid, redeal, double,
    declare, play, sawa), with the verb's companion (trump with a confirmed
    bid, lock with a Hokum call, baloot with a play) and optionally ``auto``
    (a timer chose it) and ``at`` (a time stamp)."""

    seat: Required[int]
    bid: str
    trump: str
    redeal: bool
    double: str
    lock: bool
    declare: list[ProjectItem]
    play: str
    baloot: bool
    sawa: bool
    auto: bool
    at: str


class AvailableProject(TypedDict):
    """A project a hand holds, with its value (``available_projects``)."""

    project: str
    cards: list[str]
    value: int


class ShownProject(TypedDict):
    """A declared project as a view shows it: its cards only once revealed (D18)."""

    project: str
    cards: list[str] | None


class ContractRecord(TypedDict):
    """``Contract.to_json``: the game bought, its trump, the bidder, the taker
    of the face-up card and the bidding round."""

    type: str
    trump: str | None
    bidder: int
    taker: int
    round: int


class ContractView(ContractRecord):
    """The contract in a view, with the multipliers called on it."""

    multiplier: int
    lock: bool
    gahwa: bool


class ResultContract(TypedDict):
    """The contract of a scored deal (``RoundResult.contract``)."""

    type: str
    trump: str | None
    bidder: int
    multiplier: int
    gahwa: bool
    lock: bool


class ScoredProject(TypedDict):
    seat: int
    project: str
    value: int


class RoundJSON(TypedDict):
    """``RoundResult.to_json``: the round object of the ``score`` command
    (``notation.md``); the team dicts are keyed "A" and "B"."""

    dealer: int
    outcome: str
    contract: ResultContract | None
    card_points: dict[str, int]
    projects: dict[str, list[ScoredProject]]
    baloot: dict[str, int]
    points: dict[str, int]
    score: dict[str, int]


class ScoreReport(TypedDict):
    """What the ``score`` command prints (``score_document``)."""

    rounds: list[dict[str, Any]]  # RoundJSON, as RoundResult.to_json types them
    score: dict[str, int]
    winner: str | None


class LegalReport(TypedDict, total=False):
    """What the ``legal`` command prints (``legal_document``): the phase, the
    seat to act and its actions, with the winner once the match is over or
    the next dealer between deals."""

    phase: Required[str]
    seat: Required[int | None]
    actions: Required[list[dict[str, Any]]]
    winner: str | None
    next_dealer: int | None


class ErrorPlace(TypedDict):
    round: int
    action: int
    message: str


class ErrorReport(TypedDict):
    """What the ``score`` and ``legal`` commands print at an illegal action."""

    error: ErrorPlace


class PlayedCard(TypedDict):
    seat: int
    card: str


class TrickView(TypedDict):
    leader: int
    cards: list[PlayedCard]
    winner: int


class BidView(TypedDict):
    """A bid as every view shows it; ``bid`` is "redeal" for a redeal request."""

    seat: int
    auto: bool
    round: int
    bid: str
    trump: NotRequired[str]


class CallView(TypedDict):
    seat: int
    call: str


class ShownHand(TypedDict):
    """The cards a seat had to show: a redeal's five (D7), a Sawa's rest (D26)."""

    seat: int
    cards: list[str]


class OwnView(TypedDict):
    """What a view holds for its own seat alone (``view.OWN``)."""

    seat: int | None
    team: str | None
    hand: list[str]
    # The seat's latest action if a timer chose it, without seat and auto:
    # whichever verb and companions that action had.
    timed_out: dict[str, Any] | None
    # ``legal_actions``: Actions, held by the site as plain dicts.
    legal: list[dict[str, Any]]


class View(OwnView):
    """``view_for``: what one seat, or a spectator, may see of a state."""

    mode: str
    phase: str
    dealer: int | None
    next_dealer: int
    turn: int | None
    bid_round: int | None
    score: dict[str, int]
    winner: str | None
    hand_counts: dict[str, int]
    faceup: str | None
    bids: list[BidView]
    contract: ContractView | None
    calls: list[CallView]
    declarations: dict[str, list[ShownProject] | None]
    counting_team: str | None
    trick: list[PlayedCard]
    leader: int | None
    winning: int | None
    last_trick: TrickView | None
    tricks_won: dict[str, int]
    card_points: dict[str, int]
    baloot: list[int]
    # ``RoundResult.explain`` of each finished deal: its details differ by outcome.
    results: list[dict[str, Any]]
    last_result: dict[str, Any] | None
    redeal: ShownHand | None
    sawa: ShownHand | None


class HistoryPlay(TypedDict):
    seat: int
    card: str
    baloot: bool


class History(TypedDict):
    """``public_history``: the face-up card and every card played in the deal."""

    faceup: str | None
    plays: list[HistoryPlay]
