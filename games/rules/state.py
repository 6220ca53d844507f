"""The immutable game state and the records it holds.

``State`` is a value: the engine builds a new one for every action and never
changes one it has handed out (``apply`` copies, then fills in the copy).
Fields are plain ints, tuples and bitmasks so that copying and replaying a
whole match stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from .cards import SUITS
from .projects import Project


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

    def to_json(self) -> dict[str, Any]:
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
    contract: dict[str, Any] | None  # notation form: type, trump, bidder, ...
    card_points: tuple[int, int]
    projects: tuple[tuple[tuple[int, str, int], ...], tuple[tuple[int, str, int], ...]]
    baloot: tuple[int, int]
    points: tuple[int, int]
    score: tuple[int, int]
    details: dict[str, Any] = field(default_factory=dict)
    # explain()'s dict, made once: a view shows every finished deal's result.
    _explained: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The round object of ``python -m games.rules score`` (notation.md)."""
        return {
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

    def explain(self) -> dict[str, Any]:
        """``to_json`` plus the breakdown a result panel shows (rounding, defeat...).

        A new dict each time; its values are shared with the result (as
        ``details`` always were), so treat them as read-only.
        """
        explained = self._explained
        if explained is None:
            explained = self.to_json()
            explained.update(self.details)
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


class _Setup:
    """The fields of a State that change at most a few times per deal (the
    match score, the dealing, the multipliers, who bid what), kept apart so
    that copying a State for each action copies only the fields that change
    with actions. Shared between copies until one of them writes (``State``
    handles that)."""

    __slots__ = (
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

    def copy(self) -> _Setup:
        new = _Setup.__new__(_Setup)
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


class State:
    """A match at one moment. Treat as immutable: the engine never mutates a
    State it has returned; ``apply`` works on a fresh ``copy``.

    The fields listed in ``FIELDS`` read and write as plain attributes. Those
    that change with cards and bids live in the State itself; the others in
    a ``_Setup`` shared with the copies until a write (copy on write), since a
    copy is made for every action.
    """

    if not TYPE_CHECKING:
        # Hidden from the type checker, which would refuse writes to the
        # setup fields: it cannot see the properties made below the class.
        __slots__ = (
            "_own",
            "_setup",
            "acted",
            "baloot_done",
            "baloot_ok",
            "bid_round",
            "bid_stage",
            "calls",
            "contract",
            "deal_actions",
            "declared",
            "hands",
            "leader",
            "lock",
            "outcome",
            "pending",
            "phase",
            "points",
            "trick",
            "tricks",
            "turn",
        )

    baloot_done: int
    baloot_ok: int
    contract: Contract | None
    deal_actions: tuple[dict[str, Any], ...]
    hands: tuple[int, int, int, int]
    leader: int
    lock: bool
    outcome: str | None
    phase: Phase
    points: tuple[int, int]
    trick: tuple[Play, ...]
    tricks: tuple[Trick, ...]
    turn: int | None
    acted: int
    bid_round: int
    bid_stage: int
    calls: tuple[tuple[int, str], ...]
    declared: tuple[tuple[Project, ...] | None, ...]
    pending: tuple[int, ...]
    _own: bool
    _setup: _Setup

    if TYPE_CHECKING:
        __slots__: tuple[str, ...]
        # Properties over ``_setup``, made below the class.
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
    def blank(cls) -> State:
        """A State with no field set yet, for the engine to fill in."""
        new = cls.__new__(cls)
        new._setup = _Setup.__new__(_Setup)
        new._own = True
        return new

    def own_setup(self) -> _Setup:
        """The setup fields, copied first if shared: for the engine to write
        several of them at once on a State it is building."""
        if not self._own:
            self._setup = self._setup.copy()
            self._own = True
        return self._setup

    def copy(self) -> State:
        """A full copy: every field holds an immutable value, and the setup
        fields are shared until either side writes one.

        Spelt out field by field: it runs once per action, and straight
        assignments are several times faster than a loop over the slots.
        """
        new = State.__new__(State)
        new.baloot_done = self.baloot_done
        new.baloot_ok = self.baloot_ok
        new.contract = self.contract
        new.deal_actions = self.deal_actions
        new.hands = self.hands
        new.leader = self.leader
        new.lock = self.lock
        new.outcome = self.outcome
        new.phase = self.phase
        new.points = self.points
        new.trick = self.trick
        new.tricks = self.tricks
        new.turn = self.turn
        new.acted = self.acted
        new.bid_round = self.bid_round
        new.bid_stage = self.bid_stage
        new.calls = self.calls
        new.declared = self.declared
        new.pending = self.pending
        new._setup = self._setup
        new._own = False
        # Both sides now share the setup: the next write on either copies it.
        self._own = False
        return new

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


def _setup_field(name: str) -> property:
    """A State attribute stored in its ``_setup``, copied before the first write."""

    def write(self: State, value: object) -> None:
        if not self._own:
            self._setup = self._setup.copy()
            self._own = True
        setattr(self._setup, name, value)

    # attrgetter reads through ``_setup`` without a Python-level call.
    return property(attrgetter(f"_setup.{name}"), write)


for _name in _Setup.__slots__:
    setattr(State, _name, _setup_field(_name))

# Every field of a State, by name (the private ``_setup`` and ``_own`` aside).
FIELDS: tuple[str, ...] = tuple(
    sorted(n for n in (*State.__slots__, *_Setup.__slots__) if not n.startswith("_"))
)
