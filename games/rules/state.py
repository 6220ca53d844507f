"""The immutable game state and the records it holds.

``State`` is a value: a frozen dataclass that refuses every write, at run
time and to the type checker. The engine builds each new one as a ``Draft``
(the same fields, writable), then freezes it in place. Fields are plain
ints, tuples and bitmasks so that building and replaying a whole match
stays cheap.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from .cards import SUITS
from .projects import Project
from .shapes import Action, ContractRecord, ResultContract, RoundJSON

_T = TypeVar("_T")


class Phase(Enum):
    """Where a match stands; ``legal_actions`` and ``apply`` dispatch on it."""

    DEALING = "dealing"
    BIDDING = "bidding"
    DOUBLING = "doubling"
    DECLARING = "declaring"
    PLAYING = "playing"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"

    # Members are singletons compared by identity; the default Enum hash is a
    # Python-level call, and the engine looks phases up in dicts at every action.
    __hash__ = object.__hash__


# Bidding stages inside Phase.BIDDING (D8-D12).
OPEN = 0  # a seat's ordinary turn in a bidding round
HOKUM_REPLY = 1  # the other three answer a Hokum (D10)
HOKUM_CHOICE = 2  # the Hokum bidder switches to Sun or confirms (D10)
ASHKAL_REPLY = 3  # the seat on the Ashkal caller's left answers (D11)

TEAMS = ("A", "B")
MODES = {"classic": 0, "quick": 52}
TARGET = 152


def team_of(seat: int) -> str:
    """The team of a seat: A for seats 1 and 3, B for seats 2 and 4; never raises."""
    return "A" if seat % 2 else "B"


def team_index(seat: int) -> int:
    """0 for team A, 1 for team B."""
    return (seat - 1) % 2


@dataclass(frozen=True, slots=True)
class Contract:
    """What the bidding settled: the game, its trump and who bought it."""

    kind: str  # "sun", "hokum" or "ashkal"
    trump: int  # suit index, -1 outside Hokum
    bidder: int  # the seat whose team bought it (the Ashkal caller for Ashkal)
    taker: int  # the seat that took the face-up card
    round: int  # the bidding round it was made in

    @property
    def sun(self) -> bool:
        """Ashkal is played and scored exactly as Sun (D11)."""
        return self.kind != "hokum"

    def to_json(self) -> ContractRecord:
        return {
            "type": self.kind,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "bidder": self.bidder,
            "taker": self.taker,
            "round": self.round,
        }


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The scored outcome of one deal, with everything needed to explain it."""

    dealer: int
    outcome: str  # played, sawa, all_passed, redeal
    contract: ResultContract | None
    card_points: tuple[int, int]
    projects: tuple[tuple[tuple[int, str, int], ...], tuple[tuple[int, str, int], ...]]
    baloot: tuple[int, int]
    points: tuple[int, int]
    score: tuple[int, int]
    details: dict[str, Any] = field(default_factory=dict)
    # explain()'s dict, made once: a view shows every finished deal's result.
    _explained: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The round object of ``python -m games.rules score`` (notation.md).

        A ``RoundJSON`` (``shapes.py``), typed as a plain dict for the site's
        callers, which index its nested values freely.
        """
        shaped: RoundJSON = {
            "dealer": self.dealer,
            "outcome": self.outcome,
            "contract": self.contract,
            "card_points": {"A": self.card_points[0], "B": self.card_points[1]},
            "projects": {
                team: [{"seat": s, "project": k, "value": v} for s, k, v in side]
                for team, side in zip(TEAMS, self.projects, strict=False)
            },
            "baloot": {"A": self.baloot[0], "B": self.baloot[1]},
            "points": {"A": self.points[0], "B": self.points[1]},
            "score": {"A": self.score[0], "B": self.score[1]},
        }
        return cast("dict[str, Any]", shaped)

    def explain(self) -> dict[str, Any]:
        """``to_json`` plus the breakdown a result panel shows (rounding, defeat...).

        A new dict each time; its values are shared with the result (as
        ``details`` always were), so treat them as read-only.
        """
        explained = self._explained
        if explained is None:
            explained = {**self.to_json(), **self.details}
            object.__setattr__(self, "_explained", explained)
        return dict(explained)

    def record(self) -> dict[str, Any]:
        """A JSON-safe dict that ``RoundResult.from_record`` turns back into an equal result."""
        return {
            "dealer": self.dealer,
            "outcome": self.outcome,
            "contract": self.contract,
            "card_points": list(self.card_points),
            "projects": [[list(p) for p in side] for side in self.projects],
            "baloot": list(self.baloot),
            "points": list(self.points),
            "score": list(self.score),
            "details": self.details,
        }

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> RoundResult:
        """The result a ``record`` was made of; raises KeyError, TypeError or
        ValueError for a dict that is not one."""
        a, b = (tuple((int(s), str(k), int(v)) for s, k, v in side) for side in data["projects"])
        cards_a, cards_b = data["card_points"]
        baloot_a, baloot_b = data["baloot"]
        points_a, points_b = data["points"]
        score_a, score_b = data["score"]
        return cls(
            dealer=data["dealer"],
            outcome=data["outcome"],
            contract=data["contract"],
            card_points=(cards_a, cards_b),
            projects=(a, b),
            baloot=(baloot_a, baloot_b),
            points=(points_a, points_b),
            score=(score_a, score_b),
            details=data["details"],
        )


# One card on the table: (seat, card). A plain pair, not a record: one is
# made per card played, and a NamedTuple costs several times a tuple to build.
Play = tuple[int, int]


class Trick(NamedTuple):
    """A finished trick: who led, the four plays in order and who won it (D2)."""

    leader: int
    plays: tuple[Play, ...]
    winner: int


def _refuse_write(self: object, name: str, value: object = None) -> None:
    raise FrozenInstanceError(f"{type(self).__name__} is immutable: cannot change {name!r}")


def _refusing(cls: type[_T]) -> type[_T]:
    """``cls`` with every attribute write and delete refused.

    The frozen dataclass's own __setattr__ and __delattr__ refuse its fields
    but, on a slotted class under Python 3.11, fail with a confusing
    TypeError for any other name (the setup properties, ``__class__``).
    """
    setattr(cls, "__setattr__", _refuse_write)  # noqa: B010 - the dataclass forbids defining it
    setattr(cls, "__delattr__", _refuse_write)  # noqa: B010
    return cls


_new = object.__new__


# The fields of a State that change at most a few times per deal (the match
# score, the dealing, the multipliers, who bid what), by name. They live in a
# record of their own, shared by every State of a deal until one of them is
# written, so that building the State of each action copies only the fields
# that change with actions.
SETUP_FIELDS = (
    "ashkal_caller",
    "counting",
    "dealer",
    "dealt",
    "deck",
    "double_step",
    "faceup",
    "first_doubler",
    "gahwa",
    "hokum_bidder",
    "mode",
    "multiplier",
    "next_dealer",
    "redeal_seat",
    "results",
    "score_a",
    "score_b",
    "winner",
)


@_refusing
@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class _Setup:
    """The setup fields of a State (``SETUP_FIELDS``), frozen like the State
    that holds them; ``_SetupDraft`` is the form the engine writes."""

    ashkal_caller: int
    counting: int
    dealer: int
    dealt: tuple[int, int, int, int]
    deck: tuple[int, ...]
    double_step: int
    faceup: int
    first_doubler: int
    gahwa: bool
    hokum_bidder: int
    mode: str
    multiplier: int
    next_dealer: int
    redeal_seat: int
    results: tuple[RoundResult, ...]
    score_a: int
    score_b: int
    winner: str | None

    def thaw(self) -> _SetupDraft:
        """A writable copy, for a Draft about to change a setup field."""
        new = _new(_SetupDraft)
        new.ashkal_caller = self.ashkal_caller
        new.counting = self.counting
        new.dealer = self.dealer
        new.dealt = self.dealt
        new.deck = self.deck
        new.double_step = self.double_step
        new.faceup = self.faceup
        new.first_doubler = self.first_doubler
        new.gahwa = self.gahwa
        new.hokum_bidder = self.hokum_bidder
        new.mode = self.mode
        new.multiplier = self.multiplier
        new.next_dealer = self.next_dealer
        new.redeal_seat = self.redeal_seat
        new.results = self.results
        new.score_a = self.score_a
        new.score_b = self.score_b
        new.winner = self.winner
        return new


class _SetupDraft(_Setup):
    """A ``_Setup`` the engine may write: its own, not yet shared. Freezing
    turns it into a ``_Setup`` in place (same layout, another class)."""

    __slots__ = ()
    # Both, so that CPython keeps its plain C slot writes (a class that
    # inherits a Python __delattr__ gets the slow generic dispatch).
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    if TYPE_CHECKING:
        ashkal_caller: int
        counting: int
        dealer: int
        dealt: tuple[int, int, int, int]
        deck: tuple[int, ...]
        double_step: int
        faceup: int
        first_doubler: int
        gahwa: bool
        hokum_bidder: int
        mode: str
        multiplier: int
        next_dealer: int
        redeal_seat: int
        results: tuple[RoundResult, ...]
        score_a: int
        score_b: int
        winner: str | None


@_refusing
@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class State:
    """A match at one moment: a value that nothing can change.

    Every attribute write or delete raises ``FrozenInstanceError``, and the
    type checker refuses them too. The engine makes each new State as a
    ``Draft``, which it writes and then freezes (``Draft.freeze``) before
    handing it out; the Drafts never leave the engine.

    The setup fields (``SETUP_FIELDS``) read as attributes too but live in a
    frozen ``_Setup`` record that the States of a deal share.
    """

    acted: int
    baloot_done: int
    baloot_ok: int
    bid_round: int
    bid_stage: int
    calls: tuple[tuple[int, str], ...]
    contract: Contract | None
    deal_actions: tuple[Action, ...]
    declared: tuple[tuple[Project, ...] | None, ...]
    hands: tuple[int, int, int, int]
    leader: int
    lock: bool
    outcome: str | None
    pending: tuple[int, ...]
    phase: Phase
    points: tuple[int, int]
    trick: tuple[Play, ...]
    tricks: tuple[Trick, ...]
    turn: int | None
    _setup: _Setup

    if TYPE_CHECKING:
        # Read-only properties over ``_setup``, made below the class (for the
        # type checker, frozen fields like the others).
        ashkal_caller: int
        counting: int
        dealer: int
        dealt: tuple[int, int, int, int]
        deck: tuple[int, ...]
        double_step: int
        faceup: int
        first_doubler: int
        gahwa: bool
        hokum_bidder: int
        mode: str
        multiplier: int
        next_dealer: int
        redeal_seat: int
        results: tuple[RoundResult, ...]
        score_a: int
        score_b: int
        winner: str | None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<State {self.phase.value} dealer={self.dealer} turn={self.turn} "
            f"score={self.score_a}-{self.score_b}>"
        )

    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo: object) -> State:
        return self

    @property
    def score(self) -> dict[str, int]:
        """The running match score by team."""
        return {"A": self.score_a, "B": self.score_b}

    @property
    def trump(self) -> int:
        """The trump suit index, -1 when there is none."""
        return self.contract.trump if self.contract else -1

    @property
    def first(self) -> int:
        """The first seat to act in the current deal (the dealer's right)."""
        return self.dealer % 4 + 1

    def order(self) -> tuple[int, int, int, int]:
        """The seats of the current deal in turn order (P1..P4)."""
        f = self.dealer % 4 + 1
        return (f, f % 4 + 1, (f + 1) % 4 + 1, (f + 2) % 4 + 1)

    def position(self, seat: int) -> int:
        """The seat's position P1..P4 counted from the dealer's right."""
        return (seat - self.dealer - 1) % 4 + 1


class Draft(State):
    """The engine's private builder of the next State: the same fields, writable.

    ``Draft.of(state)`` starts from a State (sharing its setup record until
    a setup field is written); ``freeze`` turns the Draft into a State in
    place and returns it, so nothing copies the fields a second time. A Draft
    is never handed out: once frozen, writing it raises like any State.
    """

    __slots__ = ()
    # See _SetupDraft: both, for the plain C slot writes.
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    if TYPE_CHECKING:
        acted: int
        baloot_done: int
        baloot_ok: int
        bid_round: int
        bid_stage: int
        calls: tuple[tuple[int, str], ...]
        contract: Contract | None
        deal_actions: tuple[Action, ...]
        declared: tuple[tuple[Project, ...] | None, ...]
        hands: tuple[int, int, int, int]
        leader: int
        lock: bool
        outcome: str | None
        pending: tuple[int, ...]
        phase: Phase
        points: tuple[int, int]
        trick: tuple[Play, ...]
        tricks: tuple[Trick, ...]
        turn: int | None
        _setup: _Setup
        # Properties over ``_setup``, made below the class, that thaw it
        # before the first write.
        ashkal_caller: int
        counting: int
        dealer: int
        dealt: tuple[int, int, int, int]
        deck: tuple[int, ...]
        double_step: int
        faceup: int
        first_doubler: int
        gahwa: bool
        hokum_bidder: int
        mode: str
        multiplier: int
        next_dealer: int
        redeal_seat: int
        results: tuple[RoundResult, ...]
        score_a: int
        score_b: int
        winner: str | None

    @classmethod
    def blank(cls) -> Draft:
        """A Draft with no field set yet, for the engine to fill in."""
        new = _new(cls)
        new._setup = _new(_SetupDraft)
        return new

    @classmethod
    def of(cls, state: State) -> Draft:
        """A Draft holding every field of ``state``, its setup record shared.

        Spelt out field by field: it runs once per action, and straight
        assignments are several times faster than a loop over the slots.
        """
        new = _new(cls)
        new.acted = state.acted
        new.baloot_done = state.baloot_done
        new.baloot_ok = state.baloot_ok
        new.bid_round = state.bid_round
        new.bid_stage = state.bid_stage
        new.calls = state.calls
        new.contract = state.contract
        new.deal_actions = state.deal_actions
        new.declared = state.declared
        new.hands = state.hands
        new.leader = state.leader
        new.lock = state.lock
        new.outcome = state.outcome
        new.pending = state.pending
        new.phase = state.phase
        new.points = state.points
        new.trick = state.trick
        new.tricks = state.tricks
        new.turn = state.turn
        new._setup = state._setup
        return new

    def own_setup(self) -> _SetupDraft:
        """The setup fields, thawed first if shared: for the engine to write
        several of them at once."""
        setup = self._setup
        if type(setup) is _SetupDraft:
            return setup
        thawed = self._setup = setup.thaw()
        return thawed

    def freeze(self) -> State:
        """This Draft, now a State (its setup record frozen too); write it no more."""
        setup = self._setup
        if type(setup) is _SetupDraft:
            setup.__class__ = _Setup  # type: ignore[assignment]  # same layout, frozen
        self.__class__ = State  # type: ignore[assignment]  # same layout, frozen
        return self


def _setup_field(name: str, writable: bool) -> property:
    """A State attribute stored in its ``_setup``; on a Draft, written after
    thawing the setup record if it is still shared."""

    def write(self: Draft, value: object) -> None:
        # own_setup, spelt out: one call fewer per write.
        setup = self._setup
        if type(setup) is not _SetupDraft:
            setup = self._setup = setup.thaw()
        setattr(setup, name, value)

    # attrgetter reads through ``_setup`` without a Python-level call.
    return property(attrgetter(f"_setup.{name}"), write if writable else None)


for _name in SETUP_FIELDS:
    setattr(State, _name, _setup_field(_name, writable=False))
    setattr(Draft, _name, _setup_field(_name, writable=True))

# Every field of a State, by name (the private ``_setup`` aside).
FIELDS: tuple[str, ...] = tuple(
    sorted(n for n in (*State.__slots__, *SETUP_FIELDS) if not n.startswith("_"))
)
