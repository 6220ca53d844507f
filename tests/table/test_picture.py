"""The table's buttons are exactly the legal actions, named as players name them."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from games import rules
from games.table.picture import SeatInfo, Table, action_json, build_table

SEATS = {n: SeatInfo(f"player{n}") for n in (1, 2, 3, 4)}


def table_of(state: rules.State, seat: int | None, **kwargs) -> Table:
    return build_table(rules.view_for(state, seat), SEATS, seq=1, **kwargs)


def offered(table: Table) -> tuple[set[str], set[str]]:
    """The actions a table's buttons post: plain ones, and the Baloot variants of cards."""
    buttons = [
        *table.bid_buttons,
        *table.trump_buttons,
        *table.call_buttons,
        *(b for group in table.call_groups for b in group.buttons),
        *table.declare_buttons,
        *([table.sawa_button] if table.sawa_button else []),
    ]
    plain = {b.action for b in buttons} | {c.action for c in table.hand if c.action}
    baloot = {c.baloot_action for c in table.hand if c.baloot_action}
    return plain, baloot


def states(seed: int, deals: int = 40):
    """Every state of a random match, a deal at a time, with the face-up card known."""
    rng = random.Random(seed)
    state = rules.start_deal(rules.new_match("classic"), rules.random_deck(rng))
    for _ in range(2000):
        if state.phase is rules.Phase.MATCH_OVER or len(state.results) >= deals:
            return
        if state.phase is rules.Phase.ROUND_OVER:
            state = rules.start_deal(state, rules.random_deck(rng))
            continue
        yield state
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))


@pytest.mark.parametrize("seed", range(6))
def test_the_buttons_are_exactly_the_legal_actions_and_only_for_the_seat_to_act(seed):
    for state in states(seed):
        legal = rules.legal_actions(state)
        plain, baloot = offered(table_of(state, state.turn))
        assert plain == {action_json(a) for a in legal if not a.get("baloot")}
        assert baloot == {action_json(a) for a in legal if a.get("baloot")}
        for seat in (None, *(s for s in (1, 2, 3, 4) if s != state.turn)):
            assert offered(table_of(state, seat)) == (set(), set())


def find(predicate: Callable[[rules.State], bool], seeds: int = 400) -> rules.State:
    for seed in range(seeds):
        for state in states(seed, deals=6):
            if predicate(state):
                return state
    raise AssertionError("no random match reached the wanted position")


def legal_has(**fields) -> Callable[[rules.State], bool]:
    return lambda s: any(
        all(a.get(k) == v for k, v in fields.items()) for a in rules.legal_actions(s)
    )


def labels(table: Table) -> list[str]:
    return [b.label for b in [*table.bid_buttons, *table.call_buttons]]


def test_second_round_hokum_is_called_second_hokum():
    state = find(
        lambda s: s.phase is rules.Phase.BIDDING and s.bid_round == 2 and legal_has(bid="hokum")(s)
    )
    assert "Second Hokum" in labels(table_of(state, state.turn))


def test_the_unanswered_hokum_bidder_confirms_or_switches_to_sun():
    state = find(lambda s: s.bid_round == 1 and legal_has(bid="confirm")(s))
    names = labels(table_of(state, state.turn))
    assert "Confirm Hokum" in names
    assert "Switch to Sun" in names


def test_a_second_hokum_is_confirmed_by_picking_the_trump():
    state = rules.start_deal(rules.new_match("classic"), rules.random_deck(random.Random(1)))
    # Four passes, a Second Hokum, three passes: the bidder names the trump.
    for bid in ["pass"] * 4 + ["hokum"] + ["pass"] * 3:
        state = rules.apply(state, {"seat": state.turn, "bid": bid})
    assert legal_has(bid="confirm")(state)
    table = table_of(state, state.turn)
    faceup = rules.view_for(state, None)["faceup"]
    suits = {json.loads(b.action)["trump"] for b in table.trump_buttons}
    assert len(suits) == 3
    assert faceup[1] not in suits
    assert all(
        any(name in b.label for name in ("Spades", "Hearts", "Diamonds", "Clubs"))
        for b in table.trump_buttons
    )


def test_ashkal_and_redeal_are_offered_by_name():
    ashkal = find(legal_has(bid="ashkal"))
    assert "Ashkal" in labels(table_of(ashkal, ashkal.turn))
    redeal = find(legal_has(redeal=True), seeds=3000)
    assert "Redeal (zero-point hand)" in labels(table_of(redeal, redeal.turn))


def test_hokum_calls_come_open_or_locked_and_gahwa_alone():
    state = find(legal_has(double="double", lock=True))
    table = table_of(state, state.turn)
    (group,) = table.call_groups
    assert group.label == "Double"
    assert sorted(b.label for b in group.buttons) == ["Double, Locked", "Double, Open"]
    assert "Pass" in labels(table)
    gahwa = find(legal_has(double="gahwa"))
    assert "Gahwa" in labels(table_of(gahwa, gahwa.turn))


def test_declarations_offer_no_projects_and_each_choice():
    state = find(lambda s: s.phase is rules.Phase.DECLARING and len(rules.legal_actions(s)) > 1)
    table = table_of(state, state.turn)
    texts = [b.label for b in table.declare_buttons]
    assert "No projects" in texts
    assert any(":" in text for text in texts if text != "No projects")


def test_sawa_and_baloot_only_when_legal():
    sawa = find(legal_has(sawa=True))
    assert table_of(sawa, sawa.turn).sawa_button is not None
    baloot = find(legal_has(baloot=True))
    table = table_of(baloot, baloot.turn)
    assert table.has_baloot
    assert any(card.baloot_action for card in table.hand)


def test_the_countdown_counts_what_is_left_and_only_while_someone_acts():
    state = find(lambda s: s.phase is rules.Phase.PLAYING)
    now = timezone.now()
    table = table_of(state, 1, deadline=now + timedelta(seconds=9.2), now=now)
    assert table.seconds_left == 10
    assert table.ms_left == 9200
    assert table_of(state, 1).seconds_left is None, "no deadline, no countdown"
