"""The leaver rule reads the whole match: "I'm back" before the last card does not undo leaving.

The seat in question steps away at the start of each deal and comes back
for its last trick, so it is never away when the match ends, while the
stand-in bot makes nearly all its decisions; every action is recorded the
way the site records it (people through ``submit``, the stand-in through
``play_due_turn``).
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games import rules
from games.match import services
from games.match.event_log import load_state
from games.match.models import Event, Match, Seat
from games.ratings import recording
from games.ratings.models import RatedSeat
from games.ratings.rebuild import problems
from tests.support.drivers import quick_match

pytestmark = pytest.mark.django_db

AWAY = 2


def calm(rng: random.Random, state: rules.State) -> dict[str, Any]:
    """Sun when it may be bid, never a double nor a claim: deals end at their last trick."""
    legal = rules.legal_actions(state)
    plain = [a for a in legal if "sawa" not in a and a.get("double", "pass") == "pass"] or legal
    sun = [a for a in plain if a.get("bid") == "sun"]
    return sun[0] if sun else rng.choice(plain)


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in bot chooses as ``calm`` does, at once."""
    rng = random.Random(3)
    monkeypatch.setattr(services, "choose_action", lambda state, seat, **_: calm(rng, state))


def play_out(players: dict[int, User], *, away_deals: bool, seed: int = 5) -> Match:
    """A rated quick match played out; with ``away_deals`` seat AWAY is away for every
    trick but each deal's last, and for one deal only otherwise."""
    rng = random.Random(seed)
    match = quick_match(players, mode="quick").match
    deals_away = 0
    while True:
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.PLAYING:
            return match
        state = load_state(match)
        last_trick = state.phase is rules.Phase.PLAYING and all(
            hand.bit_count() <= 1 for hand in state.hands
        )
        away = Seat.objects.get(match=match, number=AWAY).away
        if away and last_trick:
            services.come_back(players[AWAY], match)
            away = False
        elif state.phase is rules.Phase.BIDDING and not away and (away_deals or deals_away < 1):
            services.leave_seat(players[AWAY], match)
            deals_away += 1
            away = True
        if state.turn is None or (state.turn == AWAY and away):
            later = timezone.now() + timedelta(days=1)
            assert services.play_due_turn(match.pk, now=later) is not None
        else:
            services.submit(players[state.turn], match, calm(rng, state), match.seq)


def test_away_all_match_but_back_for_the_last_card_is_a_leaver(players: dict[int, User]):
    match = play_out(players, away_deals=True)
    assert match.status == Match.Status.FINISHED
    # The old rule's reading: the seat is not away at the end.
    assert not Seat.objects.get(match=match, number=AWAY).away
    decisions = Event.objects.filter(match=match, actor_seat=AWAY, kind=Event.Kind.ACTION)
    decisions = decisions.exclude(payload__has_key="declare")
    stood_in = decisions.filter(stand_in=True).count()
    assert stood_in > decisions.count() / 2
    row = RatedSeat.objects.get(rated_match__match=match, seat=AWAY)
    assert row.left
    assert row.mu_after < row.mu_before
    assert not RatedSeat.objects.filter(rated_match__match=match, left=True).exclude(seat=AWAY)
    assert recording.leavers(match, list(Seat.objects.filter(match=match))) == {AWAY}
    assert problems() == []


def test_a_short_absence_is_not_leaving(players: dict[int, User]):
    match = play_out(players, away_deals=False)
    assert match.status == Match.Status.FINISHED
    assert match.deal_number > 2
    assert Event.objects.filter(match=match, actor_seat=AWAY, stand_in=True).exists()
    assert not RatedSeat.objects.filter(rated_match__match=match, left=True).exists()


def test_only_the_stand_in_of_an_away_person_is_marked(players: dict[int, User]):
    match = services.play_with_bots(players[1]).match
    later = timezone.now() + timedelta(days=1)
    for _ in range(12):
        state = load_state(Match.objects.get(pk=match.pk))
        if state.turn == 1:
            services.submit(players[1], match, calm(random.Random(1), state), match.seq)
        else:
            services.play_due_turn(match.pk, now=later)
        match.refresh_from_db()
    assert Event.objects.filter(match=match, actor_seat__in=(2, 3, 4)).exists()
    assert not Event.objects.filter(match=match, stand_in=True).exists()
