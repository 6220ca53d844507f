"""The built-in Baloot bot: a rule-following player that sees only what a seat sees.

Pure Python over the rules engine (no Django import), so it can be tested,
benchmarked and used by the site alike. ``choose_action(state, seat)`` turns
the state into ``rules.view_for(state, seat)`` before deciding anything: the
bot never looks at another seat's hand or at the deck.
"""

from __future__ import annotations

from .policy import DEFAULT_BUDGET_MS, DEFAULT_LEVEL, LEVELS, choose_action, decide

__all__ = ["DEFAULT_BUDGET_MS", "DEFAULT_LEVEL", "LEVELS", "choose_action", "decide"]
