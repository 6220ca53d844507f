"""The multiplier phase: D13 (Sun and Ashkal) and D14-D16 (Hokum).

``double_step`` counts the calls made so far: 0 before Double, 1 after
Double, 2 after Triple, 3 after Four; ``pending`` holds the seats of the team
being asked, in turn order after the last caller.
"""

from __future__ import annotations

from .bidding import start_declaring
from .errors import InvalidDouble
from .shapes import Action
from .state import Draft, Phase, State

CALL_AT_STEP = ("double", "triple", "four", "gahwa")
# The compact form of a call (``engine.legal_moves``): PASS, or 1 + the index
# of the call in CALL_AT_STEP, plus LOCKED for a locked Hokum call.
PASS = 0
LOCKED = 8


def moves(st: State) -> list[int]:
    """The calls open to the seat being asked, in the compact form."""
    assert st.contract is not None
    call = st.double_step + 1
    if st.contract.sun or call == 4:
        return [PASS, call]
    return [PASS, call, call | LOCKED]


def action(st: State, move: int) -> Action:
    """The notation form of a compact call by the seat being asked."""
    seat = st.turn
    assert seat is not None
    assert st.contract is not None
    if move == PASS:
        return {"seat": seat, "double": "pass"}
    call = CALL_AT_STEP[(move & ~LOCKED) - 1]
    if st.contract.sun or call == "gahwa":
        return {"seat": seat, "double": call}
    return {"seat": seat, "double": call, "lock": bool(move & LOCKED)}


def legal(st: State) -> list[Action]:
    """The calls open to the seat being asked."""
    return [action(st, move) for move in moves(st)]


def forced(st: State) -> Action:
    """D17: a multiplier decision that times out is a Pass."""
    assert st.turn is not None
    return {"seat": st.turn, "double": "pass", "auto": True}


def step(st: Draft, seat: int, verb: str, action: Action) -> None:
    """Applies a call or a pass to ``st`` (a Draft); raises InvalidDouble."""
    contract = st.contract
    assert contract is not None
    call = action["double"]
    if call == "pass":
        do(st, seat, PASS)
        return
    expected = CALL_AT_STEP[st.double_step]
    if call != expected:
        raise InvalidDouble("The call now is %(expected)s or Pass", expected=expected.title())
    move = st.double_step + 1
    if contract.sun:
        if "lock" in action:
            raise InvalidDouble("Only Hokum calls are open or locked")
    elif call != "gahwa":
        if "lock" not in action:
            raise InvalidDouble("Choose open or locked")
        if action["lock"]:
            move |= LOCKED
    do(st, seat, move)


def do(st: Draft, seat: int, move: int) -> None:
    """Applies a compact call that ``moves`` offered to ``st`` (a Draft),
    checking nothing."""
    contract = st.contract
    assert contract is not None
    if move == PASS:
        st.calls = (*st.calls, (seat, "pass"))
        st.pending = st.pending[1:]
        if st.pending:
            st.turn = st.pending[0]
        else:
            start_declaring(st)
        return
    call = CALL_AT_STEP[st.double_step]
    if contract.sun:
        st.multiplier = 2
        st.first_doubler = seat
        st.calls = (*st.calls, (seat, call))
        start_declaring(st)
        return
    if call == "gahwa":
        st.gahwa = True
        st.lock = False  # D15: Gahwa is always open.
        st.calls = (*st.calls, (seat, call))
        start_declaring(st)
        return
    if st.double_step == 0:
        st.first_doubler = seat
    st.multiplier = st.double_step + 2
    st.lock = bool(move & LOCKED)
    st.double_step += 1
    st.calls = (*st.calls, (seat, call))
    # D14: the other team is asked next, in turn order after the caller.
    st.pending = ((seat) % 4 + 1, (seat + 2) % 4 + 1)
    st.turn = st.pending[0]
    assert st.phase is Phase.DOUBLING
