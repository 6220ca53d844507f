"""The hand-checked deals the rules tests share.

Every figure quoted here was added up by hand from rules-decisions.md D1
(card points) and D2 (trick order); the tests assert them as literals.
Hands are by position: P1 is the seat after the dealer, P4 the dealer.
"""

from __future__ import annotations

from .scenarios import Action, Deal, bid, call, deal, declarations, plays, sweep_tricks

# --- Sun "blocks": every hand holds two cards of each suit, so every trick is
# four cards of one suit and every seat follows. P1 bids Sun and takes the 9H.
SUN_BLOCKS = {
    1: "AS 9S QD 7D TC 9C AH 9H",
    2: "TS 8S AD JD QC 8C TH 8H",
    3: "KS 7S KD 9D KC 7C KH 7H",
    4: "QS JS TD 8D AC JC QH JH",
}
SUN_FACEUP = "9H"

_SUN_FIRST_SIX = [
    "AS TS KS QS",  # P1 wins: 11+10+4+3 = 28
    "QD AD KD TD",  # P2 wins: 3+11+4+10 = 28
    "JD 9D 8D 7D",  # P2 wins (J over 9): 2
    "QC KC AC TC",  # P4 wins: 3+4+11+10 = 28
    "JC 9C 8C 7C",  # P4 wins: 2
    "JS 9S 8S 7S",  # P4 wins: 2
]
# P1/P3 = 28 + 28 (last trick AH TH KH QH) + 10 = 66; P2/P4 = 28+2+28+2+2+2 = 64.
SUN_66_64 = [*_SUN_FIRST_SIX, "JH 9H 8H 7H", "QH AH TH KH"]
# P2/P4 take QH 9H 8H 7H (3) = 65; P1/P3 take JH AH TH KH (27) + 10 = 65.
SUN_65_65 = [*_SUN_FIRST_SIX, "QH 9H 8H 7H", "JH AH TH KH"]
# P1 wins JH AH TH KH (27): P1/P3 = 28 + 27 = 55; P4 wins the last trick
# 9H 8H 7H QH (3) + 10: P2/P4 = 64 + 1 + 10 = 75.
SUN_55_75 = [*_SUN_FIRST_SIX, "JH AH TH KH", "9H 8H 7H QH"]
# Five tricks, then P4 leads holding TD JC JH, each the best of its suit.
SUN_SAWA_MID = [
    "QD AD 9D 8D",  # P2: 14
    "QC KC AC TC",  # P4: 28
    "QH AH TH KH",  # P1: 28
    "AS TS KS QS",  # P1: 28
    "9S 8S 7S JS",  # P4: 2
]
# Left for P4's Sawa: TD JD 7D KD (16) + JC 9C 8C 7C (2) + JH 9H 8H 7H (2) + 10.
# P1/P3 = 56, P2/P4 = 14 + 28 + 2 + 20 + 10 = 74.

# --- Hokum "blocks": trump spades (the face-up KS), P1 bids Hokum in round 1
# and holds both KS and QS (Baloot).
HOKUM_BLOCKS = {
    1: "AH 7H AD 7D AC QS 7C KS",
    2: "JS 8S TH 8H TD 8D TC 8C",
    3: "9S 7S KH 9H KD 9D KC 9C",
    4: "AS TS QH JH QD JD QC JC",
}
HOKUM_FACEUP = "KS"

# Trumps are led last, so the play is legal in Lock mode too.
HOKUM_84_78 = [
    "AH TH KH QH",  # P1: 28
    "7H 8H 9H JH",  # P4: 2
    "QD AD TD KD",  # P1: 28
    "7D 8D 9D JD",  # P4: 2
    "QC AC TC KC",  # P1: 28
    "7C 8C 9C JC",  # P4: 2
    "TS QS 8S 7S",  # P4 (trump T over Q): 10+3 = 13
    "AS KS JS 9S",  # P2 (trump J): 11+4+20+14 = 49, +10 last
]
# P1/P3 = 84, P2/P4 = 2+2+2+13+49+10 = 78.
HOKUM_85_77 = [
    "AH TH KH QH",  # P1: 28
    "7H 8H 9H JH",  # P4: 2
    "JD AD TD KD",  # P1: 27
    "7D 8D 9D QD",  # P4: 3
    "QC AC TC 9C",  # P1: 24
    "7C 8C KC JC",  # P3 (K over J): 6
    "7S TS QS 8S",  # P4: 13
    "AS KS JS 9S",  # P2: 49 + 10
]
# P1/P3 = 28+27+24+6 = 85, P2/P4 = 2+3+13+49+10 = 77.
HOKUM_86_76 = [
    "AH TH KH QH",  # P1: 28
    "7H 8H 9H JH",  # P4: 2
    "QD AD TD KD",  # P1: 28
    "7D 8D 9D JD",  # P4: 2
    "QC AC TC 9C",  # P1: 24
    "7C 8C KC JC",  # P3: 6
    "7S TS QS 8S",  # P4: 13
    "AS KS JS 9S",  # P2: 49 + 10
]
# P1/P3 = 28+28+24+6 = 86, P2/P4 = 2+2+13+49+10 = 76.
HOKUM_81_81 = [
    "7H 8H 9H JH",  # P4: 2
    "QD AD TD 9D",  # P1: 24
    "7D 8D KD JD",  # P3 (K over J): 6
    "9C JC AC 8C",  # P1: 13
    "7C TC KC QC",  # P2: 17
    "JS 9S AS KS",  # P2 (trump J): 49
    "8S 7S TS QS",  # P4: 13
    "QH AH TH KH",  # P1: 28 + 10
]
# P1/P3 = 24+6+13+28+10 = 81, P2/P4 = 2+17+49+13 = 81.
HOKUM_80_82 = [
    "7H 8H 9H JH",  # P4: 2
    "QD AD TD KD",  # P1: 28
    "7D 8D 9D JD",  # P4: 2
    "QC AC 8C 9C",  # P1: 14
    "7C TC KC JC",  # P2: 16
    "JS 9S AS KS",  # P2: 49
    "8S 7S TS QS",  # P4: 13
    "QH AH TH KH",  # P1: 28 + 10
]
# P1/P3 = 28+14+28+10 = 80, P2/P4 = 2+2+16+49+13 = 82.
HOKUM_92_70 = [
    "7H 8H 9H JH",  # P4: 2
    "JD AD TD KD",  # P1: 27
    "7D 8D 9D QD",  # P4: 3
    "JC AC TC KC",  # P1: 27
    "7C 8C 9C QC",  # P4: 3
    "AS KS JS 9S",  # P2: 49
    "8S 7S TS QS",  # P4: 13
    "QH AH TH KH",  # P1: 28 + 10
]
# P1/P3 = 27+27+28+10 = 92, P2/P4 = 2+3+3+49+13 = 70.
HOKUM_70_92 = [
    "AH TH KH QH",  # P1: 28
    "7H 8H 9H JH",  # P4: 2
    "QD AD TD KD",  # P1: 28
    "7D 8D 9D JD",  # P4: 2
    "QC AC 8C 9C",  # P1: 14
    "7C TC KC JC",  # P2: 16
    "8S 7S TS QS",  # P4: 13
    "AS KS JS 9S",  # P2: 49 + 10
]
# P1/P3 = 28+28+14 = 70, P2/P4 = 2+2+16+13+49+10 = 92.

# --- One suit per hand: whoever leads wins every trick (a sweep).
SWEEP = {
    1: "7S 8S 9S TS JS QS KS AS",
    2: "7H 8H 9H TH JH QH KH AH",
    3: "7D 8D 9D TD JD QD KD AD",
    4: "7C 8C 9C TC JC QC KC AC",
}
SWEEP_FACEUP = "AS"


def sun_blocks(dealer: int = 4) -> Deal:
    """SUN_BLOCKS dealt by ``dealer``; P1 takes the face-up card."""
    return deal(dealer, SUN_BLOCKS, SUN_FACEUP, 1)


def hokum_blocks(dealer: int = 4) -> Deal:
    """HOKUM_BLOCKS dealt by ``dealer``; P1 takes the face-up card."""
    return deal(dealer, HOKUM_BLOCKS, HOKUM_FACEUP, 1)


def sweep_deal(dealer: int = 4) -> Deal:
    """SWEEP dealt by ``dealer``; P1 takes the face-up card."""
    return deal(dealer, SWEEP, SWEEP_FACEUP, 1)


def sun_by_p1(d: Deal) -> list[Action]:
    """P1 bids Sun at once (no doubling: defenders at 100 or less)."""
    return [bid(d.seat(1), "sun")]


def hokum_by_p1(d: Deal, *calls: Action) -> list[Action]:
    """P1 bids Hokum, everyone passes, P1 confirms; then the given calls, or
    both defenders pass the Double."""
    actions = [bid(d.seat(1), "hokum")]
    actions += [bid(d.seat(p), "pass") for p in (2, 3, 4)]
    actions.append(bid(d.seat(1), "confirm"))
    if calls:
        actions += list(calls)
    else:
        actions += [call(d.seat(2), "pass"), call(d.seat(4), "pass")]
    return actions


def b_sweeps_sun(project: tuple[str, str]) -> tuple[Deal, list[Action]]:
    """Dealer 1: P1 (seat 2, team B) bids Sun, declares ``project`` and takes
    every trick: 220 card points + the project. In Quick mode a Fifty puts B
    at 52 + 270 / 5 = 106."""
    d = sweep_deal(dealer=1)
    return d, [bid(2, "sun"), *declarations(1, {2: [project]}), *plays(d, sweep_tricks(d))]
