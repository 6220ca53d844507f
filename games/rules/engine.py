"""The engine's entry points: starting matches and deals, legal actions,
applying an action, and the action a timer forces.

``legal_actions`` and ``apply`` dispatch on the phase to one small module per
phase (bidding, doubling, declaring, playing), as OpenSpiel's games do.

Inside the engine an action also has a compact form, a small int whose
meaning depends on the phase (a card int for a play, an index for a
declaration list...): ``legal_moves`` lists them and ``apply_move`` applies
one without checking it again, for callers that choose among the legal
actions (bots, searches, benchmarks). Notation dicts are built only at this
edge (``action_of``).

A State never changes: each entry point builds the next one as a ``Draft``
of the state it was given, writes the action into it and freezes it.
``replay`` folds every action on one Draft instead of one per action.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from . import bidding, declaring, doubling, playing
from .actions import check_shape, strip
from .cards import CARD_OF
from .errors import IllegalAction, InvalidAuto, InvalidDeck, NotYourTurn, WrongPhase
from .scoring import end_deal
from .shapes import Action
from .state import MODES, OPEN, Draft, Phase, State

_PLAYING = Phase.PLAYING
_draft_of = Draft.of
# The copy kept in the log of an action whose shape is checked (by
# check_shape, or before it was logged): a plain dict() at run time, so no
# call is added per action, and an Action to the type checker.
_record_of = cast(Callable[[Mapping[str, Any]], Action], dict)
_PHASE_OF_VERB = {
    "bid": Phase.BIDDING,
    "redeal": Phase.BIDDING,
    "double": Phase.DOUBLING,
    "declare": Phase.DECLARING,
    "play": Phase.PLAYING,
    "sawa": Phase.PLAYING,
}
_MODULES = {
    Phase.BIDDING: bidding,
    Phase.DOUBLING: doubling,
    Phase.DECLARING: declaring,
    Phase.PLAYING: playing,
}
_WRONG_PHASE = {
    Phase.BIDDING: "This is the bidding",
    Phase.DOUBLING: "This is the time to double or pass",
    Phase.DECLARING: "This is the time to declare projects",
    Phase.PLAYING: "The cards are being played",
}


def new_match(mode: str = "classic", dealer: int = 4) -> State:
    """A match before its first deal; D27: Classic starts at 0, Quick at 52.

    Raises ValueError for an unknown mode or a dealer outside 1-4.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    if dealer not in (1, 2, 3, 4):
        raise ValueError(f"dealer must be a seat from 1 to 4, not {dealer!r}")
    st = Draft.blank()
    st.mode = mode
    st.phase = Phase.DEALING
    st.score_a = st.score_b = MODES[mode]
    st.winner = None
    st.results = ()
    st.next_dealer = dealer
    _clear_deal(st)
    st.dealer = 0
    return st.freeze()


def _clear_deal(st: Draft) -> None:
    setup = st.own_setup()
    setup.deck = ()
    setup.dealt = (0, 0, 0, 0)
    setup.faceup = -1
    setup.hokum_bidder = 0
    setup.ashkal_caller = 0
    setup.multiplier = 1
    setup.gahwa = False
    setup.double_step = 0
    setup.first_doubler = 0
    setup.counting = -1
    setup.redeal_seat = 0
    st.hands = (0, 0, 0, 0)
    st.declared = (None, None, None, None)
    st.calls = ()
    st.acted = 0
    st.pending = ()
    st.bid_stage = OPEN
    st.bid_round = 1
    st.turn = None
    st.contract = None
    st.lock = False
    st.baloot_ok = 0
    st.baloot_done = 0
    st.trick = ()
    st.leader = 0
    st.tricks = ()
    st.points = (0, 0)
    st.deal_actions = ()
    st.outcome = None


def parse_deck(deck: Sequence[Any]) -> tuple[int, ...]:
    """A deck of 32 distinct notation cards as card ints; raises InvalidDeck."""
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence) or len(deck) != 32:
        raise InvalidDeck("A deck is a list of 32 cards")
    try:
        cards = tuple(map(CARD_OF.__getitem__, deck))
    except (KeyError, TypeError):
        for text in deck:
            if not isinstance(text, str) or text not in CARD_OF:
                raise InvalidDeck("Unknown card %(card)s in the deck", card=repr(text)) from None
        raise
    if len(set(cards)) != 32:
        raise InvalidDeck("A deck holds each of the 32 cards once")
    return cards


def start_deal(state: State, deck: Sequence[str]) -> State:
    """Deals ``deck`` (top first) with ``state.next_dealer`` as dealer (D5).

    Raises WrongPhase while a deal is running or the match is over, and
    InvalidDeck for anything but 32 distinct cards.
    """
    return deal_draft(state, deck).freeze()


def deal_draft(state: State, deck: Sequence[str]) -> Draft:
    """``start_deal`` as a Draft, for a fold over the deal's actions
    (``advance``); raises what ``start_deal`` raises."""
    if state.phase not in (Phase.DEALING, Phase.ROUND_OVER):
        raise WrongPhase("A new deal starts only when the previous one is over")
    cards = parse_deck(deck)
    st = _draft_of(state)
    _clear_deal(st)
    setup = st.own_setup()
    dealer = setup.dealer = setup.next_dealer
    setup.deck = cards
    # notation.md: three each from card 0, then two each from card 12, P1
    # (the dealer's right) first; _DEAL_SLOTS lists each seat's deck indexes.
    one, two, three, four = (
        1 << cards[i] | 1 << cards[j] | 1 << cards[k] | 1 << cards[m] | 1 << cards[n]
        for i, j, k, m, n in _DEAL_SLOTS[dealer]
    )
    st.hands = setup.dealt = (one, two, three, four)
    setup.faceup = cards[20]
    st.phase = Phase.BIDDING
    st.turn = dealer % 4 + 1
    return st


def _deal_slots(dealer: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """The deck indexes of the first five cards of seats 1-4 (D5, notation.md)."""
    slots = []
    for seat in (1, 2, 3, 4):
        position = (seat - dealer - 1) % 4  # P1 is 0
        first = 3 * position
        second = 12 + 2 * position
        slots.append((first, first + 1, first + 2, second, second + 1))
    return tuple(slots)


# By dealer (index 0 unused).
_DEAL_SLOTS = tuple(_deal_slots(dealer) for dealer in range(5))


def legal_actions(state: State) -> list[dict[str, Any]]:
    """Every legal action of the seat to act, in notation form; never raises
    (no actions when nobody is to act).

    Each is an ``Action`` (``shapes.py``), typed here as the plain dict the
    site's callers hold and change (a TypedDict is not one, to the type checker).
    """
    module = _MODULES.get(state.phase)
    actions: list[dict[str, Any]] = module.legal(state) if module else []
    return actions


def legal_moves(state: State) -> list[int]:
    """``legal_actions`` in the compact form, in the same order; never raises."""
    phase = state.phase
    if phase is _PLAYING:
        return playing.moves(state)
    module = _MODULES.get(phase)
    moves: list[int] = module.moves(state) if module else []
    return moves


def action_of(state: State, move: int) -> Action:
    """The notation action a compact move of ``legal_moves(state)`` stands for.

    Raises WrongPhase when nobody is to act; a move that is not legal may give
    a wrong action or raise IndexError.
    """
    module = _MODULES.get(state.phase)
    if module is None:
        raise WrongPhase("Nobody is to act")
    action: Action = module.action(state, move)
    return action


def apply_move(state: State, move: int) -> State:
    """The state after a compact move taken from ``legal_moves(state)``,
    equal to ``apply(state, action_of(state, move))``; ``state`` is left unchanged.

    Trusted: the move is not checked again. Raises WrongPhase when nobody is
    to act; a move that is not legal gives a meaningless state or raises.
    """
    phase = state.phase
    if move < 32 and phase is _PLAYING:
        return playing.play_card(state, move)
    module = _MODULES.get(phase)
    if module is None:
        raise WrongPhase("Nobody is to act")
    seat = state.turn
    record = module.action(state, move)
    st = _draft_of(state)
    module.do(st, seat, move)
    st.deal_actions = (*state.deal_actions, record)
    if st.outcome is not None:
        end_deal(st)
    return st.freeze()


def forced_action(state: State) -> dict[str, Any]:
    """D17: the action a timer forces now, marked ``auto``; raises WrongPhase
    when nobody is to act. An ``Action``, typed as a plain dict like
    ``legal_actions``."""
    module = _MODULES.get(state.phase)
    if module is None:
        raise WrongPhase("Nobody is to act")
    forced: dict[str, Any] = module.forced(state)
    return forced


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after ``action``; ``state`` itself is left unchanged.

    Raises MalformedAction, WrongPhase, NotYourTurn, InvalidAuto or the
    phase's own IllegalAction subclass.
    """
    verb = check_shape(action)
    return _apply(state, action, verb)


def apply_trusted(state: State, action: Mapping[str, Any]) -> State:
    """``apply`` for actions read from a checked log: skips the shape check.

    Raises what ``apply`` raises but MalformedAction; an action that is not
    well formed may raise KeyError or TypeError instead.
    """
    return _apply(state, action, verb_of(action))


def _apply(state: State, action: Mapping[str, Any], verb: str) -> State:
    st = _draft_of(state)
    advance(st, action, verb)
    return st.freeze()


def advance(st: Draft, action: Mapping[str, Any], verb: str) -> None:
    """Applies a well-formed action with verb ``verb`` to the Draft ``st``.

    For folds that own their working Draft (``replay``, the notation reader):
    after an error ``st`` is half changed and must be dropped. Raises what
    ``apply`` raises but MalformedAction.
    """
    phase = st.phase
    if phase is _PLAYING and verb == "play" and "auto" not in action:
        # The most common action, without the generic dispatch.
        if action["seat"] != st.turn:
            raise NotYourTurn("It is not your turn")
        record = _record_of(action)
        playing.step(st, action["seat"], verb, record)
        st.deal_actions = (*st.deal_actions, record)
        if st.outcome is not None:
            end_deal(st)
        return
    if phase is not _PHASE_OF_VERB[verb]:
        if phase is Phase.MATCH_OVER:
            raise WrongPhase("The match is over")
        if phase in (Phase.DEALING, Phase.ROUND_OVER):
            raise WrongPhase("The deal is over")
        raise WrongPhase(_WRONG_PHASE[phase])
    seat = action["seat"]
    if seat != st.turn:
        raise NotYourTurn("It is not your turn")
    module = _MODULES[phase]
    if action.get("auto"):
        expected = strip(module.forced(st))
        if strip(action) != expected:
            raise InvalidAuto("A timed-out decision must be the forced choice")
    record = _record_of(action)
    module.step(st, seat, verb, record)
    st.deal_actions = (*st.deal_actions, record)
    if st.outcome is not None:
        end_deal(st)


def replay(state: State, actions: Sequence[Mapping[str, Any]]) -> State:
    """Folds ``apply`` over ``actions``; raises at the first illegal one."""
    if not actions:
        return state
    st = _draft_of(state)
    for action in actions:
        advance(st, action, check_shape(action))
    return st.freeze()


def verb_of(action: Mapping[str, Any]) -> str:
    """The verb of an action read from a checked log; raises StopIteration if none."""
    if "play" in action:
        return "play"  # most actions; a checked one holds a single verb
    for key in action:
        if key in _PHASE_OF_VERB:
            return str(key)
    raise StopIteration


__all__ = [
    "IllegalAction",
    "action_of",
    "advance",
    "apply",
    "apply_move",
    "apply_trusted",
    "deal_draft",
    "forced_action",
    "legal_actions",
    "legal_moves",
    "new_match",
    "parse_deck",
    "replay",
    "start_deal",
]
