"""What each seat did in a deal or a match, read from the engine state: pure counting.

The same functions serve the live projection (``games.ratings.recording``,
at each deal's end) and the rebuild from the log (``games.ratings.rebuild``),
so the two cannot count differently.
"""

from __future__ import annotations

from collections import Counter

from games import rules

# Raising the stakes: Gahwa is counted on its own.
DOUBLE_CALLS = frozenset({"double", "triple", "four"})
SEATS = (1, 2, 3, 4)


def deal_counts(state: rules.State) -> dict[int, Counter[str]]:
    """Each seat's counters for the deal that just ended in ``state`` (its last result).

    A deal passed out or redealt counts for nothing. Raises IndexError when
    no deal has ended.
    """
    result = state.results[-1]
    counts: dict[int, Counter[str]] = {seat: Counter() for seat in SEATS}
    if result.outcome not in ("played", "sawa") or result.contract is None:
        return counts
    details = result.details
    deal_winner = details.get("deal_winner")
    for seat in SEATS:
        team = rules.team_of(seat)
        counts[seat]["deals_played"] += 1
        counts[seat]["points"] += result.points[0 if team == "A" else 1]
        counts[seat]["projects_declared"] += len(state.declared[seat - 1] or ())
    kind = "hokum" if result.contract["type"] == "hokum" else "sun"
    bidder = counts[result.contract["bidder"]]
    bidder[f"{kind}_bought"] += 1
    if not details.get("defeated"):
        bidder[f"{kind}_made"] += 1
    for seat, call in state.calls:
        if call in DOUBLE_CALLS:
            counts[seat]["doubles_called"] += 1
            if deal_winner == rules.team_of(seat):
                counts[seat]["doubles_won"] += 1
        elif call == "gahwa":
            counts[seat]["gahwa_called"] += 1
    sawa_seat = details.get("sawa_seat")
    if sawa_seat in counts:
        counts[sawa_seat]["sawa_claims"] += 1
    return counts


def match_counts(winner: str) -> dict[int, Counter[str]]:
    """Each seat's counters for a match won by team ``winner``."""
    return {
        seat: Counter({"matches_played": 1, "matches_won": int(rules.team_of(seat) == winner)})
        for seat in SEATS
    }
