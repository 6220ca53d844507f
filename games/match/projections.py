"""Read models kept beside the log: the hooks the services call when a match starts, when
a deal ends and when a match ends.

``games.match`` never imports the packages that keep such projections (the
ratings and the players' statistics live in ``games.ratings``); they register
here when the app is ready (``games.apps``), and ``games.match.services``
calls them inside the transaction that records the deal's last action, so a
projection is committed with the event that changed it or not at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import rules
from games.match.models import Match, Seat

# (match, state after the deal's last action, the match's seats or None)
Hook = Callable[[Match, rules.State, dict[int, Seat] | None], Any]
# (match just started, its seats by number as it starts)
StartHook = Callable[[Match, dict[int, Seat]], Any]

_match_start: dict[str, StartHook] = {}
_deal_end: dict[str, Hook] = {}
_match_end: dict[str, Hook] = {}


def on_match_start(name: str, hook: StartHook) -> None:
    """Call ``hook`` once when a match starts, its seats final, before its first deal."""
    _match_start[name] = hook


def on_deal_end(name: str, hook: Hook) -> None:
    """Call ``hook`` whenever a deal of a match ends (the last of a match included)."""
    _deal_end[name] = hook


def on_match_end(name: str, hook: Hook) -> None:
    """Call ``hook`` once when a match is won, after its last deal's hooks."""
    _match_end[name] = hook


def match_started(match: Match, seats: dict[int, Seat]) -> None:
    """Run the match-start hooks; called by the services only, in their transaction."""
    for hook in _match_start.values():
        hook(match, seats)


def deal_ended(match: Match, state: rules.State, seats: dict[int, Seat] | None) -> None:
    """Run the deal-end hooks; called by the services only, in their transaction."""
    for hook in _deal_end.values():
        hook(match, state, seats)


def match_ended(match: Match, state: rules.State, seats: dict[int, Seat] | None) -> None:
    """Run the match-end hooks; called by the services only, in their transaction."""
    for hook in _match_end.values():
        hook(match, state, seats)
