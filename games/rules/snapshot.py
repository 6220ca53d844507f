"""A compact, versioned JSON form of a state, so stored matches load without a full replay.

A snapshot holds what the engine needs to resume (every field of the state
but the history of finished deals) and only the results of the deals
finished since ``results_from``: by default the latest one. A store that
keeps one snapshot per deal therefore grows with the number of deals, not
its square, and a reader gathers the earlier results from the earlier
snapshots (``snapshot_results``) and hands them to ``restore``.

Each snapshot carries ``ENGINE_VERSION``; ``restore`` and
``snapshot_results`` refuse one written by another version
(``StaleSnapshot``), so that a reader rebuilds from the log instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .state import FIELDS, Contract, Draft, Phase, RoundResult, State, Trick

# Bump whenever the same actions could give a different state or result
# (a rule or scoring change), or the snapshot layout changes: stored
# snapshots of another version are then ignored and rebuilt from the log.
ENGINE_VERSION = 2

_TUPLE_FIELDS = ("deck", "hands", "dealt", "pending", "points")
_STATE_FIELDS = tuple(name for name in FIELDS if name != "results")


class StaleSnapshot(ValueError):
    """A snapshot written by another engine version (or none): rebuild from the log."""


def snapshot(state: State, results_from: int | None = None) -> dict[str, Any]:
    """A JSON-safe dict that ``restore`` turns back into an equal state.

    It keeps the results of the deals from number ``results_from`` (counted
    from 0) on; by default only the latest finished deal's, 0 keeps them all.
    Never raises.
    """
    done = len(state.results)
    start = max(done - 1, 0) if results_from is None else min(max(results_from, 0), done)
    out: dict[str, Any] = {name: getattr(state, name) for name in _STATE_FIELDS}
    out["phase"] = state.phase.value
    out["contract"] = (
        None
        if state.contract is None
        else [getattr(state.contract, f) for f in ("kind", "trump", "bidder", "taker", "round")]
    )
    for name in _TUPLE_FIELDS:
        out[name] = list(out[name])
    out["calls"] = [list(c) for c in state.calls]
    out["declared"] = [
        None if d is None else [[kind, list(cards)] for kind, cards in d] for d in state.declared
    ]
    out["trick"] = [list(p) for p in state.trick]
    out["tricks"] = [[t.leader, [list(p) for p in t.plays], t.winner] for t in state.tricks]
    out["deal_actions"] = list(state.deal_actions)
    return {
        "engine": ENGINE_VERSION,
        "state": out,
        "results_from": start,
        "results": [r.record() for r in state.results[start:]],
    }


def snapshot_results(data: dict[str, Any]) -> tuple[int, tuple[RoundResult, ...]]:
    """The results a snapshot keeps and the number of the first of them.

    Raises StaleSnapshot for another engine version; KeyError, TypeError or
    ValueError for a dict that is not a snapshot.
    """
    if not isinstance(data, dict) or data.get("engine") != ENGINE_VERSION:
        raise StaleSnapshot("the snapshot was written by another engine version")
    start = data["results_from"]
    if type(start) is not int or start < 0:
        raise ValueError("results_from must be a count of deals")
    return start, tuple(RoundResult.from_record(r) for r in data["results"])


def restore(data: dict[str, Any], earlier: Sequence[RoundResult] = ()) -> State:
    """The state a ``snapshot`` was taken of.

    ``earlier`` are the results of the deals before the snapshot's own
    (``results_from`` of them, e.g. gathered with ``snapshot_results``).
    Raises StaleSnapshot for another engine version, ValueError when
    ``earlier`` does not fit, and KeyError, TypeError or ValueError for a
    dict that is not a snapshot.
    """
    start, own = snapshot_results(data)
    if len(earlier) != start:
        raise ValueError(f"the snapshot needs the results of {start} earlier deals")
    fields = data["state"]
    st = Draft.blank()
    for name in _STATE_FIELDS:
        setattr(st, name, fields[name])
    st.results = (*earlier, *own)
    st.phase = Phase(fields["phase"])
    st.contract = None if fields["contract"] is None else Contract(*fields["contract"])
    for name in _TUPLE_FIELDS:
        setattr(st, name, tuple(fields[name]))
    st.calls = tuple((s, c) for s, c in fields["calls"])
    st.declared = tuple(
        None if d is None else tuple((kind, tuple(cards)) for kind, cards in d)
        for d in fields["declared"]
    )
    st.trick = tuple((s, c) for s, c in fields["trick"])
    st.tricks = tuple(
        Trick(leader, tuple((s, c) for s, c in plays), winner)
        for leader, plays, winner in fields["tricks"]
    )
    st.deal_actions = tuple(fields["deal_actions"])
    return st.freeze()
