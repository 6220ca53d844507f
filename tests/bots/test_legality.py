"""The bot only ever chooses a legal action, and chooses it from its seat's view alone."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from games import rules
from games.bots import choose_action
from tests.bots.deals import Policy, deal, play_match, uniform

CARDS = [rank + suit for suit in "SHDC" for rank in "789TJQKA"]


def test_every_choice_is_legal_beside_bots_and_random_players():
    # Random partners and opponents lead the bot into states bots alone never
    # reach (odd bids, doubling chains, Ashkal replies, redeals).
    phases: Counter[str] = Counter()

    def checked_bot(state: rules.State, seat: int, rng: random.Random) -> dict[str, Any]:
        action = choose_action(state, seat)
        legal = rules.legal_actions(state)
        assert action in legal, f"{action} is not among {legal}"
        phases[state.phase.value] += 1
        return action

    rng = random.Random(20240601)
    lineups: list[dict[int, Policy]] = [
        {1: checked_bot, 2: checked_bot, 3: checked_bot, 4: checked_bot},
        {1: checked_bot, 2: uniform, 3: checked_bot, 4: uniform},
        {1: uniform, 2: checked_bot, 3: uniform, 4: uniform},
    ]
    for match in range(30):
        play_match(rng, lineups[match % len(lineups)])
    assert set(phases) == {"bidding", "doubling", "declaring", "playing"}
    assert phases["playing"] > 5000


def test_the_bot_refuses_to_act_for_a_seat_that_is_not_to_act():
    state = rules.start_deal(rules.new_match(), rules.random_deck(random.Random(1)))
    assert state.turn is not None
    with pytest.raises(ValueError, match="not to act"):
        choose_action(state, state.turn % 4 + 1)


# Every seat's script up to the first lead: bids, calls and declarations that
# are legal whatever the hands, so two deals differing only in hidden cards
# stay in step.
SCRIPTS: dict[str, list[dict[str, Any]]] = {
    "sun": [{"bid": "sun"}] + [{"declare": []}] * 4,
    "hokum": [
        {"bid": "hokum"},
        {"bid": "pass"},
        {"bid": "pass"},
        {"bid": "pass"},
        {"bid": "confirm"},
        {"double": "pass"},
        {"double": "pass"},
    ]
    + [{"declare": []}] * 4,
}


def _hidden_dealt_anew(
    hands: dict[int, list[str]], seat: int, faceup: str, rng: random.Random
) -> dict[int, list[str]]:
    """The same deal for ``seat``, with every card it cannot see dealt anew to the others.

    Seat 1 takes the face-up card in both scripts, so it stays with seat 1.
    """
    hidden = [c for s, hand in hands.items() if s != seat for c in hand if c != faceup]
    rng.shuffle(hidden)
    out = {seat: hands[seat]}
    for other in (1, 2, 3, 4):
        if other != seat:
            size = 7 if other == 1 else 8
            out[other], hidden = hidden[:size], hidden[size:]
    if seat != 1:
        out[1].append(faceup)
    return out


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_cards_the_seat_cannot_see_never_change_its_choice(script: str):
    rng = random.Random(script)
    compared = 0
    for _trial in range(25):
        cards = rng.sample(CARDS, 32)
        hands = {seat: cards[8 * (seat - 1) : 8 * seat] for seat in (1, 2, 3, 4)}
        faceup = hands[1][-1]
        for seat in (1, 2, 3, 4):
            other = _hidden_dealt_anew(hands, seat, faceup, rng)
            a = deal({s: " ".join(h) for s, h in hands.items()}, faceup, taker=1)
            b = deal({s: " ".join(h) for s, h in other.items()}, faceup, taker=1)
            for step in [*SCRIPTS[script], None]:
                if a.turn == seat:
                    assert rules.view_for(a, seat) == rules.view_for(b, seat)
                    assert choose_action(a, seat) == choose_action(b, seat)
                    compared += 1
                if step is not None:
                    a = rules.apply(a, {"seat": a.turn, **step})
                    b = rules.apply(b, {"seat": b.turn, **step})
            assert a.phase is rules.Phase.PLAYING
    assert compared > 100


def test_the_bot_runs_without_django():
    # The bot is pure, like the rules engine: importing it loads no Django.
    code = (
        "import sys, games.bots; "
        "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'channels')], "
        "sorted(m for m in sys.modules if m.startswith(('django', 'channels')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


_CHOICES_DIGEST = """
import hashlib, json, random
from games.bots import choose_action
from tests.bots.deals import play_match, uniform
digest = hashlib.sha256()
def bot(state, seat, rng):
    action = choose_action(state, seat)
    digest.update(json.dumps(action, sort_keys=True).encode())
    return action
rng = random.Random(11)
for _ in range(3):
    play_match(rng, {1: bot, 2: uniform, 3: bot, 4: uniform})
print(digest.hexdigest())
"""


def test_the_same_views_get_the_same_choices_in_any_process():
    # Bots in the worker, in daphne and in a replay's analysis are different
    # processes with different hash seeds; a choice must not depend on a set's order.
    digests = set()
    for seed in ("1", "2", "3"):
        result = subprocess.run(
            [sys.executable, "-c", _CHOICES_DIGEST],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert result.returncode == 0, result.stderr
        digests.add(result.stdout.strip())
    assert len(digests) == 1, digests
