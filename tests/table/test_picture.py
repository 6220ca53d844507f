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
    table = table_of(state, state.turn)
    suit = rules.view_for(state, None)["faceup"][1]
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    name = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}[suit]
    confirm, switch = (
        next(b for b in table.bid_buttons if json.loads(b.action)["bid"] == bid)
        for bid in ("confirm", "sun")
    )
    # Each choice says what it means: the trump it makes, or no trump.
    assert confirm.label == f"Confirm Hokum {symbol}"
    assert confirm.hint == f"Trump: {symbol} {name}"
    assert switch.label == "Switch to Sun"
    assert switch.hint == "No trump instead of Hokum"


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
    table = table_of(ashkal, ashkal.turn)
    assert "Ashkal" in labels(table)
    hints = {json.loads(b.action)["bid"]: b.hint for b in table.bid_buttons}
    assert hints["ashkal"] == "Your partner takes the face-up card; played as Sun"
    assert hints["sun"] == "No trump; you take the face-up card"
    assert hints["pass"] == ""
    redeal = find(legal_has(redeal=True), seeds=3000)
    assert "Redeal (zero-point hand)" in labels(table_of(redeal, redeal.turn))


def test_hokum_calls_come_open_or_locked_and_gahwa_alone():
    state = find(legal_has(double="double", lock=True))
    table = table_of(state, state.turn)
    (group,) = table.call_groups
    assert group.label == "Double \N{MULTIPLICATION SIGN}2"
    assert sorted(b.label for b in group.buttons) == ["Double, Locked", "Double, Open"]
    assert {b.hint for b in group.buttons} == {
        "No trump lead while holding another suit",
        "Any card may lead",
    }
    assert "Pass" in labels(table)
    gahwa = find(legal_has(double="gahwa"))
    assert "Gahwa" in labels(table_of(gahwa, gahwa.turn))


def test_declarations_offer_no_projects_and_each_choice():
    state = find(lambda s: s.phase is rules.Phase.DECLARING and len(rules.legal_actions(s)) > 1)
    table = table_of(state, state.turn)
    texts = [b.label for b in table.declare_buttons]
    assert texts[-1] == "No projects"
    assert any(":" in text for text in texts if text != "No projects")
    # The best declaration comes first, preselected.
    worth = {"sira": 20, "fifty": 50, "hundred": 100, "four_hundred": 200}
    values = [
        sum(worth[p["project"]] for p in json.loads(b.action)["declare"])
        for b in table.declare_buttons
    ]
    assert values[0] == max(values)
    assert table.declare_buttons[0].style == "preselected"


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


def test_bid_bubbles_are_only_shown_while_bidding():
    bidding = find(lambda s: s.phase is rules.Phase.BIDDING and len(s.deal_actions) >= 2)
    assert any(seat.bid for seat in table_of(bidding, 1).seats.values())
    playing = find(lambda s: s.phase is rules.Phase.PLAYING)
    assert not any(seat.bid for seat in table_of(playing, 1).seats.values())


def test_the_card_winning_the_trick_and_the_leader_are_marked():
    state = find(lambda s: s.phase is rules.Phase.PLAYING and len(s.trick) == 3)
    table = table_of(state, 1)
    winning = [p for p in table.trick if p.winning]
    assert len(winning) == 1
    assert table.trick[0].led
    finished = rules.apply(state, rules.legal_actions(state)[0])
    winner = finished.tricks[-1][2]
    assert [s.is_leader for s in table.seats.values()].count(True) == 1
    assert next(s for s in table.seats.values() if s.is_leader).number == state.leader
    # The completed trick stays in the middle, its winner marked, until the next lead.
    held = table_of(finished, 1)
    assert held.trick == ()
    assert len(held.trick_done) == 4
    assert [p.winning for p in held.trick_done].count(True) == 1
    assert held.trick_winner_position == next(
        s.position for s in held.seats.values() if s.number == winner
    )
    assert held.trick_key
    if finished.phase is rules.Phase.PLAYING:
        led = rules.apply(finished, rules.legal_actions(finished)[0])
        assert table_of(led, 1).trick_done == ()


def test_a_timed_out_turn_says_what_was_played_and_warns():
    state = find(lambda s: s.phase is rules.Phase.PLAYING and s.turn == 1)
    forced = rules.forced_action(state)
    after = rules.apply(state, forced)
    notice = table_of(after, 1).timer_notice
    assert notice.startswith("Time ran out: ")
    assert "was played for you." in notice
    assert notice.endswith("After 3 missed turns in a row, a bot takes over your seat.")
    assert table_of(after, 2).timer_notice == "", "only the seat itself is told"
    assert table_of(state, 1).timer_notice == ""
    bid = find(lambda s: s.phase is rules.Phase.BIDDING and s.turn == 1)
    passed = rules.apply(bid, rules.forced_action(bid))
    assert table_of(passed, 1).timer_notice.startswith("Time ran out: “Pass” was chosen for you.")


def test_a_deal_ended_by_sawa_shows_the_claimers_cards():
    claim = find(legal_has(sawa=True))
    claimer = claim.turn
    held = rules.view_for(claim, claimer)["hand"]
    ended = rules.apply(claim, {"seat": claimer, "sawa": True})
    for viewer in (1, 2, 3, 4, None):
        table = table_of(ended, viewer)
        assert sorted(face.code for face in table.sawa_cards) == sorted(held)
        assert table.sawa_name == f"player{claimer}"
    notes = table_of(ended, claimer).result.notes
    assert any("claimed Sawa: your team took every remaining card." in n for n in notes)
    other = claimer % 4 + 1
    notes = table_of(ended, other).result.notes
    assert any("claimed Sawa: the other team took every remaining card." in n for n in notes)
