"""The immutable game state and the records it holds.

``State`` is a value: the engine builds a new one for every action and never
changes one it has handed out (``apply`` copies, then fills in the copy).
Fields are plain ints, tuples and bitmasks so that copying and replaying a
whole match stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .cards import SUITS


class Phase(Enum):
    """Where a match stands; ``legal_actions`` and ``apply`` dispatch on it."""

    DEALING = "dealing"
    BIDDING = "bidding"
    DOUBLING = "doubling"
    DECLARING = "declaring"
    PLAYING = "playing"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"


# Bidding stages inside Phase.BIDDING (D8-D12).
OPEN = 0  # a seat's ordinary turn in a bidding round
HOKUM_REPLY = 1  # the other three answer a Hokum (D10)
HOKUM_CHOICE = 2  # the Hokum bidder switches to Sun or confirms (D10)
ASHKAL_REPLY = 3  # the seat on the Ashkal caller's left answers (D11)

TEAMS = ("A", "B")
MODES = {"classic": 0, "quick": 52}
TARGET = 152


def team_of(seat: int) -> str:
    """The team of a seat: A for seats 1 and 3, B for seats 2 and 4."""
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
        """``to_json`` plus the breakdown a result panel shows (rounding, defeat...)."""
        out = self.to_json()
        out.update(self.details)
        return out


class State:
    """A match at one moment. Treat as immutable: the engine never mutates a
    State it has returned; ``apply`` works on a fresh copy."""

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
    declared: tuple[Any, ...]
    counting: int
    baloot_ok: int
    baloot_done: int
    trick: tuple[tuple[int, int], ...]
    leader: int
    tricks: tuple[tuple[int, tuple[tuple[int, int], ...], int], ...]
    points: tuple[int, int]
    deal_actions: tuple[dict[str, Any], ...]
    outcome: str | None
    redeal_seat: int

    def copy(self) -> State:
        """A shallow copy; every field holds an immutable value."""
        new: State = _copy_state(self)
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


def _compile_copy() -> Any:
    # Copying runs once per action and is the engine's hottest path: straight
    # assignments beat a getattr/setattr loop over the slots several times.
    lines = ["def _copy_state(old):", "    new = _new(State)"]
    lines += [f"    new.{name} = old.{name}" for name in State.__slots__]
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "State": State}
    exec("\n".join(lines), namespace)
    return namespace["_copy_state"]


_copy_state = _compile_copy()
