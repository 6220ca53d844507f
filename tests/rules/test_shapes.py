"""The TypedDicts of ``games.rules.shapes`` say what the engine really hands out.

``view_for``, ``public_history``, ``legal_actions`` and ``forced_action``
reach the site typed as plain dicts, so the type checker sees their shape
only where the engine builds them; these tests check the built dicts against
the shapes over whole random matches.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from games.rules import (
    Phase,
    State,
    apply,
    available_projects,
    forced_action,
    legal_actions,
    new_match,
    public_history,
    random_deck,
    shapes,
    start_deal,
    view_for,
)


def states(matches: int, seed: int) -> Iterator[State]:
    rng = random.Random(seed)
    for _ in range(matches):
        state = new_match(rng.choice(("classic", "quick")), rng.randint(1, 4))
        yield state
        while state.phase is not Phase.MATCH_OVER:
            if state.phase in (Phase.DEALING, Phase.ROUND_OVER):
                state = start_deal(state, random_deck(rng))
            else:
                state = apply(state, rng.choice(legal_actions(state)))
            yield state


def fits(value: Mapping[str, Any], shape: Any) -> bool:
    keys = set(value)
    return shape.__required_keys__ <= keys <= shape.__required_keys__ | shape.__optional_keys__


def test_every_view_and_history_has_the_keys_of_its_shape() -> None:
    seen_phases = set()
    for state in states(4, 28):
        seen_phases.add(state.phase)
        public = view_for(state, None)
        for seat in (None, 1, 2, 3, 4):
            view = view_for(state, seat, public=public if seat else None)
            assert fits(view, shapes.View), sorted(set(view) ^ shapes.View.__required_keys__)
            assert set(shapes.OwnView.__required_keys__) <= set(view)
            for bid in view["bids"]:
                assert fits(bid, shapes.BidView)
            if view["contract"] is not None:
                assert fits(view["contract"], shapes.ContractView)
            for projects in view["declarations"].values():
                for project in projects or ():
                    assert fits(project, shapes.ShownProject)
            for played in view["trick"]:
                assert fits(played, shapes.PlayedCard)
            if view["last_trick"] is not None:
                assert fits(view["last_trick"], shapes.TrickView)
            for key in ("redeal", "sawa"):
                if view[key] is not None:
                    assert fits(view[key], shapes.ShownHand)
        history = public_history(state)
        assert fits(history, shapes.History)
        for play in history["plays"]:
            assert fits(play, shapes.HistoryPlay)
    assert seen_phases == set(Phase)


def test_every_action_the_engine_offers_or_logs_has_the_action_keys() -> None:
    for state in states(4, 29):
        for logged in state.deal_actions:
            assert fits(logged, shapes.Action)
        if state.turn is None:
            continue
        for action in [*legal_actions(state), forced_action(state)]:
            assert fits(action, shapes.Action)
            for project in action.get("declare", ()):
                assert fits(project, shapes.ProjectItem)
        if state.contract is not None:
            assert fits(state.contract.to_json(), shapes.ContractRecord)
            for seat in (1, 2, 3, 4):
                for project in available_projects(state, seat):
                    assert fits(project, shapes.AvailableProject)
        for result in state.results:
            assert fits(result.to_json(), shapes.RoundJSON)
            if result.contract is not None:
                assert fits(result.contract, shapes.ResultContract)
