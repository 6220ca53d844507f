"""The double-dummy analysis of a finished deal: pure Python over the rules engine.

For every card played (and every Sawa claim) the solver
(``games.rules.solver``) gives the card points each team ends the deal with
if all four play perfectly from there on, every hand known: before the play
and after it. A play that lowers its own team's figure lost points, and the
cards that would have kept it are named. The figures are whole-deal card
points (the tricks already taken plus the solver's value of the rest), so
that the values before and after a play, and the evaluation line across the
deal, read on one scale.

All the searches of a deal share one transposition table
(``solver.DealSolver``), from the last card back to the first: a position's
search finds its later positions already in the table, and the value after a
card, right whenever the card kept the value, is tried first. The figures
are those of a fresh search of every position.

No Django here: the worker runs ``analyse_deal`` in a separate, low-priority
process (``games.worker.analysis``), and ``bench/analysis_bench.py`` times
it. Only a deal that is over is ever analysed: the analysis shows every hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.rules import Phase, State, solver
from games.rules.state import team_index
from games.worker.priority import lower_this_thread

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
    rated = [
        step
        for step, action in enumerate(actions, 1)
        if states[step - 1].phase is Phase.PLAYING and is_analysed(action)
    ]
    # The whole-deal value of every position around a rated action, searched
    # from the deal's end back to its start with one table: a position's
    # search finds the later positions' subtrees in the table, and the value
    # after a card is the first guess for the value before it (most cards
    # keep it).
    needed = {step - 1 for step in rated} | {
        step for step in rated if states[step].phase is Phase.PLAYING
    }
    search = solver.DealSolver()
    values: dict[int, tuple[int, int]] = {}
    guess: int | None = None
    for index in sorted(needed, reverse=True):
        values[index] = _whole_deal(search, states[index], guess)
        guess = values[index][0]
    plays: list[Play] = []
    for step in rated:
        action = actions[step - 1]
        before = states[step - 1]
        team = team_index(action["seat"])
        value_before = values[step - 1]
        value_after = values[step] if step in values else _final(before, action)
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
                # value: that costs a search per card, more than the values.
                "best": _best(search, before, value_before) if loss else [],
            }
        )
    return plays


def _whole_deal(
    search: solver.DealSolver, state: State, guess: int | None = None
) -> tuple[int, int]:
    """The card points each team ends the deal with, best play from ``state`` on;
    ``guess`` is team A's expected figure."""
    position = solver.position_of(state)
    a, b = search.value(position, None if guess is None else guess - state.points[0])
    # state.points: the tricks already taken. The solver counts the trick in
    # progress from its first card, and a trick's points go to its winner
    # only once it is complete, so the two add up without overlap.
    return state.points[0] + a, state.points[1] + b


def _best(search: solver.DealSolver, before: State, value: tuple[int, int]) -> list[str]:
    """The cards that keep ``value``, the whole-deal value of ``before``."""
    return search.best_cards(
        solver.position_of(before), (value[0] - before.points[0], value[1] - before.points[1])
    )


def _final(before: State, action: dict[str, Any]) -> tuple[int, int]:
    """The deal's card points after the action that ended it (the last card, or a claim)."""
    position = solver.position_of(before)
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
    """Run this process only when nothing else wants the processor: the idle policy,
    with the lowest niceness as the fallback where the policy is missing
    (``games.worker.priority``)."""
    lower_this_thread(19, idle=True)
