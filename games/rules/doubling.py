"""The multiplier phase: D13 (Sun and Ashkal) and D14-D16 (Hokum).

``double_step`` counts the calls made so far: 0 before Double, 1 after
Double, 2 after Triple, 3 after Four; ``pending`` holds the seats of the team
being asked, in turn order after the last caller.
"""

from __future__ import annotations

from typing import Any

from .bidding import start_declaring
from .errors import InvalidDouble
from .state import Phase, State

CALL_AT_STEP = ("double", "triple", "four", "gahwa")


def legal(st: State) -> list[dict[str, Any]]:
    """The calls open to the seat being asked."""
    seat = st.turn
    assert st.contract is not None
    out: list[dict[str, Any]] = [{"seat": seat, "double": "pass"}]
    call = CALL_AT_STEP[st.double_step]
    if st.contract.sun:
        out.append({"seat": seat, "double": "double"})
    elif call == "gahwa":
        out.append({"seat": seat, "double": "gahwa"})
    else:
        out.append({"seat": seat, "double": call, "lock": False})
        out.append({"seat": seat, "double": call, "lock": True})
    return out


def forced(st: State) -> dict[str, Any]:
    """D17: a multiplier decision that times out is a Pass."""
    return {"seat": st.turn, "double": "pass", "auto": True}


def step(st: State, seat: int, verb: str, action: dict[str, Any]) -> None:
    """Applies a call or a pass to ``st`` (a fresh copy)."""
    contract = st.contract
    assert contract is not None
    call = action["double"]
    if call == "pass":
        st.calls = (*st.calls, (seat, "pass"))
        st.pending = st.pending[1:]
        if st.pending:
            st.turn = st.pending[0]
        else:
            start_declaring(st)
        return
    expected = CALL_AT_STEP[st.double_step]
    if call != expected:
        raise InvalidDouble("The call now is %(expected)s or Pass", expected=expected.title())
    if contract.sun:
        if "lock" in action:
            raise InvalidDouble("Only Hokum calls are open or locked")
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
    if "lock" not in action:
        raise InvalidDouble("Choose open or locked")
    if st.double_step == 0:
        st.first_doubler = seat
    st.multiplier = st.double_step + 2
    st.lock = action["lock"]
    st.double_step += 1
    st.calls = (*st.calls, (seat, call))
    # D14: the other team is asked next, in turn order after the caller.
    st.pending = ((seat) % 4 + 1, (seat + 2) % 4 + 1)
    st.turn = st.pending[0]
    assert st.phase is Phase.DOUBLING
