"""A JSON form of any state, so stored matches load without a full replay."""

from __future__ import annotations

from typing import Any

from .state import Contract, Phase, RoundResult, State, Trick

_TUPLE_FIELDS = ("deck", "hands", "dealt", "pending", "points")


def snapshot(state: State) -> dict[str, Any]:
    """A JSON-safe dict that ``restore`` turns back into an equal state; never raises."""
    out: dict[str, Any] = {}
    for name in State.__slots__:
        out[name] = getattr(state, name)
    out["phase"] = state.phase.value
    out["contract"] = (
        None
        if state.contract is None
        else [getattr(state.contract, f) for f in ("kind", "trump", "bidder", "taker", "round")]
    )
    out["results"] = [
        {
            "dealer": r.dealer,
            "outcome": r.outcome,
            "contract": r.contract,
            "card_points": list(r.card_points),
            "projects": [[list(p) for p in side] for side in r.projects],
            "baloot": list(r.baloot),
            "points": list(r.points),
            "score": list(r.score),
            "details": r.details,
        }
        for r in state.results
    ]
    for name in _TUPLE_FIELDS:
        out[name] = list(out[name])
    out["calls"] = [list(c) for c in state.calls]
    out["declared"] = [
        None if d is None else [[kind, list(cards)] for kind, cards in d] for d in state.declared
    ]
    out["trick"] = [list(p) for p in state.trick]
    out["tricks"] = [[t.leader, [list(p) for p in t.plays], t.winner] for t in state.tricks]
    out["deal_actions"] = list(state.deal_actions)
    return out


def restore(data: dict[str, Any]) -> State:
    """The state a ``snapshot`` was taken of; raises KeyError or ValueError if
    the dict is not one."""
    st = State.__new__(State)
    for name in State.__slots__:
        setattr(st, name, data[name])
    st.phase = Phase(data["phase"])
    st.contract = None if data["contract"] is None else Contract(*data["contract"])
    st.results = tuple(
        RoundResult(
            dealer=r["dealer"],
            outcome=r["outcome"],
            contract=r["contract"],
            card_points=tuple(r["card_points"]),
            projects=_projects(r["projects"]),
            baloot=tuple(r["baloot"]),
            points=tuple(r["points"]),
            score=tuple(r["score"]),
            details=r["details"],
        )
        for r in data["results"]
    )
    for name in _TUPLE_FIELDS:
        setattr(st, name, tuple(data[name]))
    st.calls = tuple((s, c) for s, c in data["calls"])
    st.declared = tuple(
        None if d is None else tuple((kind, tuple(cards)) for kind, cards in d)
        for d in data["declared"]
    )
    st.trick = tuple((s, c) for s, c in data["trick"])
    st.tricks = tuple(
        Trick(leader, tuple((s, c) for s, c in plays), winner)
        for leader, plays, winner in data["tricks"]
    )
    st.deal_actions = tuple(data["deal_actions"])
    return st


def _projects(
    sides: list[list[list[Any]]],
) -> tuple[tuple[tuple[int, str, int], ...], tuple[tuple[int, str, int], ...]]:
    a, b = (tuple((int(s), str(k), int(v)) for s, k, v in side) for side in sides)
    return a, b
