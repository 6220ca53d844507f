"""How the bot declares (D18-D21a): every project it holds, keeping Baloot when it counts more."""

from __future__ import annotations

from typing import Any

from games.rules.projects import VALUES as PROJECT_VALUES

from .hand import KING, QUEEN, of_suit, rank

View = dict[str, Any]

# D21a: Baloot is 20 card points, certain and never compared; a project that
# uses the trump K or Q gives it up.
BALOOT_VALUE = 20


def declare(view: View) -> dict[str, Any]:
    """The valid declaration list worth the most card points."""
    legal = view["legal"]
    baloot_cards = _baloot_cards(view)

    def worth(action: dict[str, Any]) -> tuple[int, int]:
        projects = action["declare"]
        value = sum(PROJECT_VALUES[p["project"]] for p in projects)
        if baloot_cards and any(c in baloot_cards for p in projects for c in p["cards"]):
            value -= BALOOT_VALUE
        # On equal worth, show the other team fewer cards.
        return value, -sum(len(p["cards"]) for p in projects)

    return max(legal, key=worth)


def _baloot_cards(view: View) -> set[str]:
    """The trump K and Q when the bot holds both in a Hokum, else nothing."""
    contract = view["contract"]
    if contract["type"] != "hokum":
        return set()
    pair = {c for c in of_suit(view["hand"], contract["trump"]) if rank(c) in (KING, QUEEN)}
    return pair if len(pair) == 2 else set()
