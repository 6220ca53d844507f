"""The immutable game state and the records it holds.

``State`` is a value: the engine builds a new one for every action and never
changes one it has handed out (``apply`` copies, then fills in the copy).
Fields are plain ints, tuples and bitmasks so that copying and replaying a
whole match stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

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


class State:
    """A match at one moment. Treat as immutable: the engine never mutates a
    State it has returned; ``apply`` works on a fresh ``copy``."""

    __slots__ = (
        "acted",
        "ashkal_caller",
        "baloot_done",
        "baloot_ok",
        "bid_round",
        "bid_stage",
        "calls",
        "contract",
        "counting",
        "deal_actions",
        "dealer",
        "dealt",
        "deck",
        "declared",
        "double_step",
        "faceup",
        "first_doubler",
        "gahwa",
        "hands",
        "hokum_bidder",
        "leader",
        "lock",
        "mode",
        "multiplier",
        "next_dealer",
        "outcome",
        "pending",
        "phase",
        "points",
        "redeal_seat",
        "results",
        "score_a",
        "score_b",
        "trick",
        "tricks",
        "turn",
        "winner",
    )

    mode: str
    phase: Phase
    score_a: int
    score_b: int
    winner: str | None
    results: tuple[RoundResult, ...]
    next_dealer: int
    dealer: int
    deck: tuple[int, ...]
    hands: tuple[int, int, int, int]
    dealt: tuple[int, int, int, int]
    faceup: int
    turn: int | None
    bid_round: int
    bid_stage: int
    pending: tuple[int, ...]
    hokum_bidder: int
    ashkal_caller: int
    acted: int
    contract: Contract | None
    multiplier: int
    lock: bool
    gahwa: bool
    double_step: int
    first_doubler: int
    calls: tuple[tuple[int, str], ...]
    declared: tuple[tuple[Project, ...] | None, ...]
    counting: int
    baloot_ok: int
    baloot_done: int
    trick: tuple[Play, ...]
    leader: int
    tricks: tuple[Trick, ...]
    points: tuple[int, int]
    deal_actions: tuple[dict[str, Any], ...]
    outcome: str | None
    redeal_seat: int

    def copy(self) -> State:
        """A shallow copy; every field holds an immutable value, so it is a full one.

        Spelt out field by field: it runs once per action, and straight
        assignments are several times faster than a loop over the slots.
        """
        new = State.__new__(State)
        new.acted = self.acted
        new.ashkal_caller = self.ashkal_caller
        new.baloot_done = self.baloot_done
        new.baloot_ok = self.baloot_ok
        new.bid_round = self.bid_round
        new.bid_stage = self.bid_stage
        new.calls = self.calls
        new.contract = self.contract
        new.counting = self.counting
        new.deal_actions = self.deal_actions
        new.dealer = self.dealer
        new.dealt = self.dealt
        new.deck = self.deck
        new.declared = self.declared
        new.double_step = self.double_step
        new.faceup = self.faceup
        new.first_doubler = self.first_doubler
        new.gahwa = self.gahwa
        new.hands = self.hands
        new.hokum_bidder = self.hokum_bidder
        new.leader = self.leader
        new.lock = self.lock
        new.mode = self.mode
        new.multiplier = self.multiplier
        new.next_dealer = self.next_dealer
        new.outcome = self.outcome
        new.pending = self.pending
        new.phase = self.phase
        new.points = self.points
        new.redeal_seat = self.redeal_seat
        new.results = self.results
        new.score_a = self.score_a
        new.score_b = self.score_b
        new.trick = self.trick
        new.tricks = self.tricks
        new.turn = self.turn
        new.winner = self.winner
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in State.__slots__)

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
