"""The double-dummy analysis of a finished deal: pure Python over the rules engine.

For every card played (and every Sawa claim) the solver
(``games.rules.solver``) gives the card points each team ends the deal with
if all four play perfectly from there on, every hand known: before the play
and after it. A play that lowers its own team's figure lost points, and the
cards that would have kept it are named. The figures are whole-deal card
points (the tricks already taken plus the solver's value of the rest), so
that the values before and after a play, and the evaluation line across the
deal, read on one scale.

No Django here: the worker runs ``analyse_deal`` in a separate, low-priority
process (``games.worker.analysis``), and ``bench/analysis_bench.py`` times
it. Only a deal that is over is ever analysed: the analysis shows every hand.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from typing import Any

from games.rules import Phase, State, solver
from games.rules.state import team_index

Play = dict[str, Any]


def is_analysed(action: dict[str, Any]) -> bool:
    """True for the actions the analysis rates: a card played or a Sawa claim."""
    return "play" in action or bool(action.get("sawa"))


def analyse_deal(states: Sequence[State], actions: Sequence[dict[str, Any]]) -> list[Play]:
    """Every rated action of a finished deal with its values, in order.

    ``states[0]`` is the deal as dealt and ``states[k]`` the state after
    ``actions[k - 1]`` (as ``games.match.event_log`` folds them). Each entry:
    ``step`` (k), ``seat``, ``card`` (None for a claim), ``sawa``,
    ``before`` and ``after`` ([A, B] card points at the end of the deal with
    best play from there), ``loss`` (the acting team's drop, 0 when the play
    kept the value) and ``best`` (the cards that kept it, [] when it was
    kept). Raises ValueError when the deal is not over.
    """
    if len(states) != len(actions) + 1:
        raise ValueError("a deal has one state more than actions")
    if states[-1].phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        raise ValueError("only a finished deal is analysed")
    plays: list[Play] = []
    known: tuple[int, int] | None = None
    for step, action in enumerate(actions, 1):
        before = states[step - 1]
        if before.phase is not Phase.PLAYING or not is_analysed(action):
            known = None
            continue
        position = solver.position_of(before)
        team = team_index(action["seat"])
        value_before = known if known is not None else _whole_deal(before, position)
        after = states[step]
        if after.phase is Phase.PLAYING:
            value_after = _whole_deal(after, solver.position_of(after))
            known = value_after
        else:
            value_after = _final(before, position, action)
            known = None
        loss = max(0, value_before[team] - value_after[team])
        plays.append(
            {
                "step": step,
                "seat": action["seat"],
                "card": action.get("play"),
                "sawa": "play" not in action,
                "before": list(value_before),
                "after": list(value_after),
                "loss": loss,
                # Only a play that lost points names the cards that kept the
                # value: the search of every card costs more than two values.
                "best": solver.best_cards(position) if loss else [],
            }
        )
    return plays


def _whole_deal(state: State, position: solver.Position) -> tuple[int, int]:
    """The card points each team ends the deal with, best play from ``position`` on."""
    a, b = solver.value(position)
    # state.points: the tricks already taken. The solver counts the trick in
    # progress from its first card, and a trick's points go to its winner
    # only once it is complete, so the two add up without overlap.
    return state.points[0] + a, state.points[1] + b


def _final(before: State, position: solver.Position, action: dict[str, Any]) -> tuple[int, int]:
    """The deal's card points after the action that ended it (the last card, or a claim)."""
    if "play" in action:
        a, b = solver.card_values(position)[action["play"]]
    else:
        remaining = solver.remaining_points(position)
        a, b = (remaining, 0) if team_index(action["seat"]) == 0 else (0, remaining)
    return before.points[0] + a, before.points[1] + b


def serve(connection: Any) -> None:
    """The analysis process's loop: a ``(states, actions)`` job in, its result out.

    Runs at the lowest scheduling priority, so that live play always comes
    first on a busy machine. Each answer is ``("ok", plays)`` or
    ``("error", text)``; the loop ends when the worker closes its end.
    """
    _lower_priority()
    while True:
        try:
            states, actions = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("ok", analyse_deal(states, actions))
        except Exception as error:  # reported to the worker, which logs it
            answer = ("error", f"{type(error).__name__}: {error}")
        try:
            connection.send(answer)
        except (BrokenPipeError, OSError):
            return


def _lower_priority() -> None:
    """Ask the system to run this process only when nothing else wants the processor."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(19)
