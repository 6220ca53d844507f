"""The state record itself: a value nothing can change, built from complete
drafts; tricks are named records."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError

import pytest

from games.rules import (
    CARD_STR,
    Document,
    Phase,
    RoundRecord,
    State,
    Trick,
    apply,
    apply_move,
    apply_trusted,
    legal_actions,
    legal_moves,
    new_match,
    random_deck,
    replay,
    replay_document,
    restore,
    snapshot,
    start_deal,
)
from games.rules.state import FIELDS, Draft


def finished_deal(seed: int) -> State:
    rng = random.Random(seed)
    state = start_deal(new_match(), random_deck(rng))
    while state.phase is not Phase.ROUND_OVER:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_a_draft_carries_every_field() -> None:
    state = finished_deal(5)
    draft = Draft.of(state)
    assert draft == state
    for name in State.__slots__:
        assert getattr(draft, name) is getattr(state, name), name
    frozen = draft.freeze()
    assert frozen is draft
    assert type(frozen) is State
    assert frozen == state


@pytest.mark.parametrize("name", FIELDS)
def test_no_field_of_a_state_can_be_changed(name: str) -> None:
    state = finished_deal(6)
    before = snapshot(state, 0)
    with pytest.raises(FrozenInstanceError):
        setattr(state, name, getattr(state, name))
    with pytest.raises(FrozenInstanceError):
        delattr(state, name)
    assert snapshot(state, 0) == before


def test_a_state_takes_no_new_attribute_nor_another_class() -> None:
    state = finished_deal(7)
    with pytest.raises(FrozenInstanceError):
        state.cache = {}  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError):
        state.__class__ = Draft
    assert type(state) is State


def test_the_setup_record_a_state_shares_is_frozen_too() -> None:
    """The fields that change a few times per deal live in a record the
    States of a deal share: changing it would change all of them."""
    state = finished_deal(8)
    later = start_deal(state, random_deck(random.Random(1)))
    for holder in (state, later):
        with pytest.raises(FrozenInstanceError):
            holder._setup.score_a = 0  # type: ignore[misc]
    assert state.score == later.score


def every_entry_point() -> list[State]:
    rng = random.Random(9)
    start = new_match()
    dealt = start_deal(start, random_deck(rng))
    action = legal_actions(dealt)[0]
    doc = Document(rounds=[RoundRecord(dealt.dealer, list(map(CARD_STR.__getitem__, dealt.deck)))])
    doc.rounds[0].actions.append(action)
    played = finished_deal(10)
    return [
        start,
        dealt,
        apply(dealt, action),
        apply_trusted(dealt, action),
        apply_move(dealt, legal_moves(dealt)[0]),
        replay(dealt, [action]),
        restore(snapshot(played, 0)),
        replay_document(doc, allow_unfinished=True),
        played,
    ]


def test_the_engine_hands_out_frozen_states_only() -> None:
    for state in every_entry_point():
        assert type(state) is State
        assert type(state._setup).__name__ == "_Setup"
        with pytest.raises(FrozenInstanceError):
            state.turn = None  # type: ignore[misc]


def test_card_play_hands_out_frozen_states_to_the_end_of_the_match() -> None:
    """The compact path builds a card play's state without ``freeze``: every
    state of a whole match played that way is frozen, its setup record too."""
    rng = random.Random(12)
    state = new_match()
    while state.phase is not Phase.MATCH_OVER:
        if state.phase in (Phase.DEALING, Phase.ROUND_OVER):
            state = start_deal(state, random_deck(rng))
        else:
            state = apply_move(state, rng.choice(legal_moves(state)))
        assert type(state) is State
        assert type(state._setup).__name__ == "_Setup"


def test_a_state_pickles_and_copies_as_a_value() -> None:
    state = finished_deal(11)
    again = pickle.loads(pickle.dumps(state))
    assert again == state
    assert type(again) is State
    with pytest.raises(FrozenInstanceError):
        again.score_a = 0  # type: ignore[misc]
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state


def test_tricks_are_records_of_plays() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(20):
        state = start_deal(new_match(), random_deck(rng))
        while state.phase is not Phase.ROUND_OVER:
            state = apply(state, rng.choice(legal_actions(state)))
        for trick in state.tricks:
            assert isinstance(trick, Trick)
            assert len(trick.plays) == 4
            seats = [seat for seat, _ in trick.plays]
            assert seats[0] == trick.leader
            assert seats == [(trick.leader + i - 1) % 4 + 1 for i in range(4)]
            assert trick.winner in seats
            checked += 1
    assert checked > 20
