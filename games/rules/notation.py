"""The ``baloot/1`` match notation (``notation.md``): read, check, replay, write.

``read_document`` rejects what can be judged without playing (malformed
documents); ``replay_document`` plays every round through the engine and
stops at the first illegal action. Unknown keys at the document and round
level are kept, so tools that rewrite a document lose nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actions import check_shape
from .engine import advance, deal_draft, legal_actions, new_match, parse_deck, verb_of
from .errors import IllegalAction
from .shapes import ErrorReport, LegalReport, ScoreReport
from .state import MODES, Phase, State

NOTATION = "baloot/1"
_DOC_KEYS = ("notation", "mode", "players", "rounds")
_ROUND_KEYS = ("dealer", "deck", "actions")
# How deep lists and objects may nest in a document, the document itself
# counted as 1. A document of this notation nests 8 deep (the document, its
# rounds, a round, its actions, an action, its projects, a project, its
# cards); unknown keys may nest a few levels more. Deeper ones are refused:
# whatever reads, stores and writes them again recurses once per level.
MAX_NESTING = 32


class MalformedDocument(ValueError):
    """A document that is not valid ``baloot/1`` before any rule is applied.

    Like ``IllegalAction``, it keeps its English message template and params
    (``template``, ``params``) so that a user interface can translate it; the
    ``problem`` param is the IllegalAction that made a deck or action bad.
    """

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.template = message
        self.params = params


class NotationError(ValueError):
    """The first action (counted from 1, 0 for the round itself) the rules refuse.

    Like ``IllegalAction``, it keeps its English message template and params
    (``template``, ``params``) so that a user interface can translate it.
    """

    def __init__(self, round_number: int, action: int, message: str, **params: Any) -> None:
        text = message % params if params else message
        super().__init__(f"round {round_number}, action {action}: {text}")
        self.round = round_number
        self.action = action
        self.message = text
        self.template = message
        self.params = params

    def to_json(self) -> ErrorReport:
        return {"error": {"round": self.round, "action": self.action, "message": self.message}}


@dataclass
class RoundRecord:
    """One deal as the notation stores it."""

    dealer: int
    deck: list[str]
    actions: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Document:
    """A whole match as the notation stores it."""

    mode: str = "classic"
    players: dict[str, str] | None = None  # seat "1" to "4": name
    rounds: list[RoundRecord] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def nesting(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (0 for a plain value), found without
    recursion, so that any depth is measured."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in children)
    return deepest


def check_nesting(data: Any) -> None:
    """Raises MalformedDocument when lists and objects nest in ``data`` deeper than
    MAX_NESTING."""
    if nesting(data) > MAX_NESTING:
        raise MalformedDocument(
            "lists and objects nest more than %(limit)s levels deep", limit=MAX_NESTING
        )


def read_document(text: str | bytes) -> Document:
    """Parses and checks a document; raises MalformedDocument saying what is wrong."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MalformedDocument("not valid JSON: %(error)s", error=str(exc)) from None
    except RecursionError:
        raise MalformedDocument(
            "lists and objects nest more than %(limit)s levels deep", limit=MAX_NESTING
        ) from None
    check_nesting(data)
    if not isinstance(data, dict):
        raise MalformedDocument("a document is a JSON object")
    if data.get("notation") != NOTATION:
        raise MalformedDocument('"notation" must be "%(notation)s"', notation=NOTATION)
    mode = data.get("mode")
    if mode not in MODES:
        raise MalformedDocument('"mode" must be "classic" or "quick"')
    players = data.get("players")
    if players is not None and (
        not isinstance(players, dict)
        or not all(k in ("1", "2", "3", "4") and isinstance(v, str) for k, v in players.items())
    ):
        raise MalformedDocument('"players" maps seats "1" to "4" to names')
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise MalformedDocument('"rounds" must be a list')
    records = [_read_round(i, r) for i, r in enumerate(rounds, 1)]
    extra = {k: v for k, v in data.items() if k not in _DOC_KEYS}
    return Document(mode=mode, players=players, rounds=records, extra=extra)


def _read_round(number: int, data: Any) -> RoundRecord:
    if not isinstance(data, dict):
        raise MalformedDocument("round %(round)s: a round is a JSON object", round=number)
    dealer = data.get("dealer")
    if type(dealer) is not int or not 1 <= dealer <= 4:
        raise MalformedDocument(
            "round %(round)s: the dealer must be a seat from 1 to 4", round=number
        )
    deck = data.get("deck")
    try:
        parse_deck(deck)  # type: ignore[arg-type]
    except IllegalAction as exc:
        raise MalformedDocument("round %(round)s: %(problem)s", round=number, problem=exc) from None
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise MalformedDocument("round %(round)s: the actions must be a list", round=number)
    for i, action in enumerate(actions, 1):
        try:
            check_shape(action)
        except IllegalAction as exc:
            raise MalformedDocument(
                "round %(round)s, action %(action)s: %(problem)s",
                round=number,
                action=i,
                problem=exc,
            ) from None
    extra = {k: v for k, v in data.items() if k not in _ROUND_KEYS}
    return RoundRecord(dealer=dealer, deck=list(deck), actions=actions, extra=extra)  # type: ignore[arg-type]


def replay_document(doc: Document, allow_unfinished: bool = False) -> State:
    """Plays the document through the engine.

    Raises NotationError at the first illegal action, a wrong dealer, a round
    after the match was won, or a deal left unfinished (the last one is
    allowed to be unfinished when ``allow_unfinished``).
    """
    first_dealer = doc.rounds[0].dealer if doc.rounds else 4
    state = new_match(doc.mode, first_dealer)
    last = len(doc.rounds)
    for number, record in enumerate(doc.rounds, 1):
        if state.phase is Phase.MATCH_OVER:
            raise NotationError(number, 0, "The match was already won")
        if record.dealer != state.next_dealer:
            raise NotationError(
                number, 0, "The dealer of this round must be seat %(seat)s", seat=state.next_dealer
            )
        # The deal's actions are folded on one Draft (no new State per action).
        draft = deal_draft(state, record.deck)
        for index, action in enumerate(record.actions, 1):
            try:
                advance(draft, action, verb_of(action))
            except IllegalAction as exc:
                raise NotationError(number, index, exc.template, **exc.params) from None
        state = draft.freeze()
        if state.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            if allow_unfinished and number == last:
                break
            raise NotationError(number, len(record.actions) + 1, "The deal is not finished")
    return state


def score_document(doc: Document) -> ScoreReport:
    """The ``score`` command's result; raises NotationError."""
    state = replay_document(doc)
    return {
        "rounds": [r.to_json() for r in state.results],
        "score": state.score,
        "winner": state.winner,
    }


def legal_document(doc: Document) -> LegalReport:
    """The ``legal`` command's result; raises NotationError."""
    state = replay_document(doc, allow_unfinished=True)
    phase = state.phase
    if phase is Phase.MATCH_OVER:
        return {"phase": "match_over", "seat": None, "actions": [], "winner": state.winner}
    if phase in (Phase.ROUND_OVER, Phase.DEALING):
        next_dealer = state.next_dealer if doc.rounds else None
        return {"phase": "round_over", "seat": None, "actions": [], "next_dealer": next_dealer}
    return {"phase": phase.value, "seat": state.turn, "actions": legal_actions(state)}


def write_document(doc: Document) -> str:
    """Canonical text: one line per action, so documents diff well.

    ``write_document(read_document(text))`` gives back ``text`` for any text
    this function wrote. Raises TypeError for a value JSON cannot hold, and
    MalformedDocument for lists and objects nested deeper than MAX_NESTING.
    """
    check_nesting(
        {
            **doc.extra,
            "players": doc.players,
            "rounds": [{**r.extra, "actions": r.actions} for r in doc.rounds],
        }
    )
    top: dict[str, Any] = {"notation": NOTATION, "mode": doc.mode}
    if doc.players is not None:
        top["players"] = doc.players
    top.update(doc.extra)
    lines = ["{"]
    for key, value in top.items():
        lines.append(f"  {_dump(key)}: {_dump(value)},")
    lines.append('  "rounds": [')
    for i, record in enumerate(doc.rounds):
        head: dict[str, Any] = {"dealer": record.dealer, "deck": record.deck}
        head.update(record.extra)
        lines.append("    {")
        for key, value in head.items():
            lines.append(f"      {_dump(key)}: {_dump(value)},")
        if record.actions:
            lines.append('      "actions": [')
            for j, action in enumerate(record.actions):
                comma = "," if j < len(record.actions) - 1 else ""
                lines.append(f"        {_dump(action)}{comma}")
            lines.append("      ]")
        else:
            lines.append('      "actions": []')
        lines.append("    }" + ("," if i < len(doc.rounds) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
