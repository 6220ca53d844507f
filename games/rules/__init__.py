"""The Baloot rules engine: pure Python, standard library only.

The rules are the seeds (``shared/seeds/``: one rule set in five languages,
the Chinese one adding the zero-point redeal) plus the decisions D1-D30 of
``shared/spec/rules-decisions.md``; the match notation and the command line
follow ``shared/spec/notation.md``. Where the seeds are silent, this engine
decides as follows (each decision is exercised by a named test):

- D1/D2 card points and trick order; D3 follow suit, must trump in Hokum, no
  obligation to over-trump; D4 lock mode forbids leading trump while holding
  another suit, at every lead.
- D5 3+2 deal, face-up card, top-up once the contract is settled (so doubling
  and declarations see eight cards); D6 the dealer moves on after every deal,
  all-pass included; D7 a zero-point redeal keeps the dealer.
- D8-D12 bidding: Sun ends it; a Hokum is answered by the other three (no
  second Hokum) and, unanswered, is switched to Sun or confirmed; an Ashkal is
  answered by the seat on the caller's left; round two on four passes.
- D13 Sun/Ashkal double only for a first-round contract with the defenders
  above 100; D14-D16 the Hokum chain Double, Triple, Four, Gahwa, each call
  choosing open or locked (Gahwa open); D17 timers force the cheapest action.
- D18-D20 one declaration per seat before the first card, project types public
  at once and cards after the first trick; D21a Baloot once with trump K or Q.
- D21-D25 scoring; D26 the exact Sawa check; D27-D29 the match to 152.

Public names: see ``docs/rules-api.md``.
"""

from __future__ import annotations

from .cards import CARD_STR, SUITS, Rank, Suit
from .engine import (
    action_of,
    apply,
    apply_move,
    apply_trusted,
    forced_action,
    legal_actions,
    legal_moves,
    new_match,
    replay,
    start_deal,
)
from .errors import (
    CardNotInHand,
    IllegalAction,
    InvalidAuto,
    InvalidBaloot,
    InvalidBid,
    InvalidDeck,
    InvalidDeclaration,
    InvalidDouble,
    InvalidRedeal,
    InvalidSawa,
    LockedLead,
    MalformedAction,
    MustFollowSuit,
    MustTrump,
    NotYourTurn,
    WrongPhase,
)
from .fairness import commitment, deck_from_hands, deck_from_seed, random_deck
from .notation import (
    MAX_NESTING,
    Document,
    MalformedDocument,
    NotationError,
    RoundRecord,
    check_nesting,
    legal_document,
    read_document,
    replay_document,
    score_document,
    write_document,
)
from .projects import VALUES as PROJECT_VALUES
from .projects import candidates, describe
from .scoring import convert
from .shapes import Action, AvailableProject, History, View
from .snapshot import ENGINE_VERSION, StaleSnapshot, restore, snapshot, snapshot_results
from .state import Contract, Phase, RoundResult, State, Trick, team_of
from .view import public_history, view_for


def available_projects(state: State, seat: int) -> list[AvailableProject]:
    """Every single project the seat's hand holds, with its card points (D19).

    Never raises: before a contract there are none.
    """
    if state.contract is None:
        return []
    return [
        {**describe(p), "value": PROJECT_VALUES[p[0]]}
        for p in candidates(state.hands[seat - 1], state.contract.sun)
    ]


__all__ = [
    "CARD_STR",
    "ENGINE_VERSION",
    "MAX_NESTING",
    "SUITS",
    "Action",
    "AvailableProject",
    "CardNotInHand",
    "Contract",
    "Document",
    "History",
    "IllegalAction",
    "InvalidAuto",
    "InvalidBaloot",
    "InvalidBid",
    "InvalidDeck",
    "InvalidDeclaration",
    "InvalidDouble",
    "InvalidRedeal",
    "InvalidSawa",
    "LockedLead",
    "MalformedAction",
    "MalformedDocument",
    "MustFollowSuit",
    "MustTrump",
    "NotYourTurn",
    "NotationError",
    "Phase",
    "Rank",
    "RoundRecord",
    "RoundResult",
    "StaleSnapshot",
    "State",
    "Suit",
    "Trick",
    "View",
    "WrongPhase",
    "action_of",
    "apply",
    "apply_move",
    "apply_trusted",
    "available_projects",
    "check_nesting",
    "commitment",
    "convert",
    "deck_from_hands",
    "deck_from_seed",
    "forced_action",
    "legal_actions",
    "legal_document",
    "legal_moves",
    "new_match",
    "public_history",
    "random_deck",
    "read_document",
    "replay",
    "replay_document",
    "restore",
    "score_document",
    "snapshot",
    "snapshot_results",
    "start_deal",
    "team_of",
    "view_for",
    "write_document",
]
