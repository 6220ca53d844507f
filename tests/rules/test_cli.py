"""The command line contract of notation.md: ``python -m games.rules score``
and ``legal``, run as subprocesses, and its standard-library-only promise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .deals import (
    HOKUM_84_78,
    SUN_55_75,
    hokum_blocks,
    hokum_by_p1,
    sun_blocks,
    sun_by_p1,
    sweep_deal,
)
from .scenarios import (
    Action,
    Deal,
    bid,
    call,
    deal,
    declarations,
    document,
    freeze,
    no_declarations,
    play,
    plays,
    sweep_tricks,
)

REPO = Path(__file__).resolve().parents[2]


def cli(
    tmp_path: Path, command: str, doc: Any, *python_flags: str
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m games.rules COMMAND FILE`` on a document (a dict, or
    raw text for malformed input)."""
    path = tmp_path / "match.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return subprocess.run(
        [sys.executable, *python_flags, "-m", "games.rules", command, str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def ok_json(proc: subprocess.CompletedProcess[str]) -> Any:
    """The JSON a successful command printed."""
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def error_of(proc: subprocess.CompletedProcess[str]) -> tuple[int, int]:
    """Exit 1 with {"error": {"round", "action", "message"}}: (round, action)."""
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    out = json.loads(proc.stdout)
    assert set(out) == {"error"}
    assert set(out["error"]) == {"round", "action", "message"}
    assert isinstance(out["error"]["message"], str)
    assert out["error"]["message"]
    return out["error"]["round"], out["error"]["action"]


def hokum_doubled_round() -> tuple[Deal, list[Action]]:
    """Round 1: HOKUM_84_78 doubled by seat 2 (open), Baloot with QS:
    8 / 8, bidders ahead on 84 > 78: (8 + 8) x 2 + 2 = 34."""
    d = hokum_blocks(4)
    calls = (call(2, "double", False), call(3, "pass"), call(1, "pass"))
    return d, hokum_by_p1(d, *calls) + no_declarations(4) + plays(d, HOKUM_84_78, {"QS"})


def all_pass_round() -> tuple[Deal, list[Action]]:
    """Round 2: dealer 1, everyone passes twice."""
    return sun_blocks(1), [bid(s, "pass") for s in (2, 3, 4, 1)] * 2


def sun_project_round() -> tuple[Deal, list[Action]]:
    """Round 3: dealer 2 (P1 = seat 3), SUN_55_75 with P3's (seat 1's) four
    kings: A 155 -> 31, B 75 -> 15."""
    d = sun_blocks(2)
    decl = declarations(2, {1: [("hundred", "KS KD KC KH")]})
    return d, sun_by_p1(d) + decl + plays(d, SUN_55_75)


def test_score_prints_the_notation_result(tmp_path: Path) -> None:
    """notation.md "Scoring from the command line": the exact keys and figures."""
    doc = document("classic", [hokum_doubled_round(), all_pass_round(), sun_project_round()])
    doc["players"] = {"1": "alice", "2": "bot", "3": "bob", "4": "carol"}
    zero = {"A": 0, "B": 0}
    assert ok_json(cli(tmp_path, "score", doc)) == {
        "rounds": [
            {
                "dealer": 4,
                "outcome": "played",
                "contract": {
                    "type": "hokum",
                    "trump": "S",
                    "bidder": 1,
                    "multiplier": 2,
                    "gahwa": False,
                    "lock": False,
                },
                "card_points": {"A": 84, "B": 78},
                "projects": {"A": [], "B": []},
                "baloot": {"A": 20, "B": 0},
                "points": {"A": 34, "B": 0},
                "score": {"A": 34, "B": 0},
            },
            {
                "dealer": 1,
                "outcome": "all_passed",
                "contract": None,
                "card_points": zero,
                "projects": {"A": [], "B": []},
                "baloot": zero,
                "points": zero,
                "score": {"A": 34, "B": 0},
            },
            {
                "dealer": 2,
                "outcome": "played",
                "contract": {
                    "type": "sun",
                    "trump": None,
                    "bidder": 3,
                    "multiplier": 1,
                    "gahwa": False,
                    "lock": False,
                },
                "card_points": {"A": 55, "B": 75},
                "projects": {"A": [{"seat": 1, "project": "hundred", "value": 100}], "B": []},
                "baloot": zero,
                "points": {"A": 31, "B": 15},
                "score": {"A": 65, "B": 15},
            },
        ],
        "score": {"A": 65, "B": 15},
        "winner": None,
    }


def test_score_ignores_unknown_document_keys_and_at(tmp_path: Path) -> None:
    """notation.md: "at" is ignored by scoring; unknown document or round
    keys (a shuffle seed, a commitment) are ignored."""
    d, actions = hokum_doubled_round()
    stamped = [{**a, "at": "2025-01-01T00:00:00Z"} for a in actions]
    doc = document("classic", [(d, stamped)])
    doc["seed"] = "abc"
    doc["rounds"][0]["commitment"] = "def"
    assert ok_json(cli(tmp_path, "score", doc))["score"] == {"A": 34, "B": 0}


def test_score_error_at_the_first_illegal_action(tmp_path: Path) -> None:
    """notation.md: exit 1 and {"error": {...}} at the first illegal action:
    seat 4 bidding before seat 3 is round 1, action 3."""
    doc = document("classic", [(sun_blocks(4), [bid(1, "pass"), bid(2, "pass"), bid(4, "sun")])])
    assert error_of(cli(tmp_path, "score", doc)) == (1, 3)


def test_score_error_later_in_the_round(tmp_path: Path) -> None:
    """notation.md: the first illegal action is counted from 1 within its
    round: P2 not following spades is action 7 of round 2."""
    d0 = sun_blocks(3)
    rounds = [(d0, [bid(s, "pass") for s in (4, 1, 2, 3)] * 2)]
    d = sun_blocks(4)
    # Sun (1), four declarations (2-5), AS (6), AD while holding TS 8S (7).
    actions = sun_by_p1(d) + no_declarations(4) + [play(1, "AS"), play(2, "AD")]
    rounds.append((d, actions))
    assert error_of(cli(tmp_path, "score", document("classic", rounds))) == (2, 7)


def test_score_wrong_dealer_is_action_0(tmp_path: Path) -> None:
    """notation.md: a wrong dealer is a round-level fault: action 0."""
    d, actions = hokum_doubled_round()
    doc = document("classic", [(d, actions), (sun_blocks(3), [bid(4, "pass")])])
    assert error_of(cli(tmp_path, "score", doc)) == (2, 0)


def hundred_sweep(dealer: int, doubling: bool) -> tuple[Deal, list[Action]]:
    """P1 bids Sun, declares TS-AS and sweeps: 320 -> 64."""
    d = sweep_deal(dealer)
    calls = [call(d.seat(2), "pass"), call(d.seat(4), "pass")] if doubling else []
    decl = declarations(dealer, {d.seat(1): [("hundred", "TS JS QS KS AS")]})
    return d, sun_by_p1(d) + calls + decl + plays(d, sweep_tricks(d))


def won_match() -> list[tuple[Deal, list[Action]]]:
    """Quick: A 116, B 116, A 180: A has won after three deals."""
    return [hundred_sweep(4, False), hundred_sweep(1, True), hundred_sweep(2, True)]


def test_score_round_after_the_match_was_won_is_action_0(tmp_path: Path) -> None:
    """notation.md: a round after the match was won is a round-level fault."""
    doc = document("quick", [*won_match(), (sun_blocks(3), [bid(4, "pass")])])
    assert error_of(cli(tmp_path, "score", doc)) == (4, 0)
    result = ok_json(cli(tmp_path, "score", document("quick", won_match())))
    assert result["score"] == {"A": 180, "B": 116}
    assert result["winner"] == "A"


def test_score_incomplete_last_round_is_an_error(tmp_path: Path) -> None:
    """notation.md: a last round whose actions stop before the deal is over
    is an error at action number (its action count + 1)."""
    d, actions = hokum_doubled_round()
    doc = document("classic", [(d, actions[:20])])
    assert error_of(cli(tmp_path, "score", doc)) == (1, 21)


def test_score_may_end_between_deals(tmp_path: Path) -> None:
    """notation.md: a document may end between deals, with winner null."""
    result = ok_json(cli(tmp_path, "score", document("classic", [hokum_doubled_round()])))
    assert result["winner"] is None
    assert len(result["rounds"]) == 1


# --- malformed documents: exit 2, one line on stderr --------------------------


def base_doc() -> dict[str, Any]:
    return document("classic", [hokum_doubled_round()])


def _bad_card() -> str:
    doc = base_doc()
    doc["rounds"][0]["deck"][5] = "1S"
    return json.dumps(doc)


def _short_deck() -> str:
    doc = base_doc()
    doc["rounds"][0]["deck"] = doc["rounds"][0]["deck"][:31]
    return json.dumps(doc)


def _duplicate() -> str:
    doc = base_doc()
    doc["rounds"][0]["deck"][31] = doc["rounds"][0]["deck"][0]
    return json.dumps(doc)


def _action(action: dict[str, Any]) -> str:
    doc = base_doc()
    doc["rounds"][0]["actions"][0] = action
    return json.dumps(doc)


MALFORMED = {
    "bad_json": '{"notation": "baloot/1", "mode": "classic", "rounds": [',
    "unknown_card": _bad_card(),
    "31_cards": _short_deck(),
    "duplicate_card": _duplicate(),
    "seat_5": _action({"seat": 5, "bid": "hokum"}),
    "two_verbs": _action({"seat": 1, "bid": "hokum", "play": "AH"}),
    "no_verb": _action({"seat": 1}),
    "unknown_bid_value": _action({"seat": 1, "bid": "hokm"}),
    "unknown_double_value": _action({"seat": 1, "double": "quadruple"}),
    "unknown_action_key": _action({"seat": 1, "bid": "hokum", "note": "x"}),
}


@pytest.mark.parametrize("command", ["score", "legal"])
@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_document_exits_2_with_one_line(tmp_path: Path, case: str, command: str) -> None:
    """notation.md: anything that can be judged without replaying the game
    (bad JSON, unknown card, not 32 distinct cards, seat outside 1-4, not
    exactly one verb, unknown verb value or key) exits 2 with a one-line
    message on standard error."""
    proc = cli(tmp_path, command, MALFORMED[case])
    assert proc.returncode == 2
    assert proc.stdout == ""
    message = proc.stderr.rstrip("\n")
    assert message
    assert "\n" not in message


# --- legal --------------------------------------------------------------------


def legal_of(tmp_path: Path, rounds: list[tuple[Deal, list[Action]]], mode: str = "classic") -> Any:
    return ok_json(cli(tmp_path, "legal", document(mode, rounds)))


def same_actions(got: list[Any], expected: list[Action]) -> bool:
    """Order does not matter (notation.md)."""
    return sorted(freeze(a) for a in got) == sorted(freeze(a) for a in expected)


def test_legal_bidding(tmp_path: Path) -> None:
    """notation.md "Asking what is legal": phase bidding, seat to act, bids."""
    out = legal_of(tmp_path, [(sun_blocks(4), [bid(1, "pass"), bid(2, "pass")])])
    assert set(out) == {"phase", "seat", "actions"}
    assert (out["phase"], out["seat"]) == ("bidding", 3)
    expected = [{"seat": 3, "bid": b} for b in ("pass", "sun", "hokum", "ashkal")]
    assert same_actions(out["actions"], expected)


def test_legal_doubling_lists_both_lock_variants(tmp_path: Path) -> None:
    """notation.md: each call with lock true and false where it applies."""
    d = hokum_blocks(4)
    out = legal_of(tmp_path, [(d, hokum_by_p1(d)[:5])])
    assert (out["phase"], out["seat"]) == ("doubling", 2)
    assert same_actions(
        out["actions"],
        [
            {"seat": 2, "double": "double", "lock": True},
            {"seat": 2, "double": "double", "lock": False},
            {"seat": 2, "double": "pass"},
        ],
    )


def test_legal_declaring_lists_every_declaration(tmp_path: Path) -> None:
    """notation.md: every valid declaration list for the declaration phase,
    [] included."""
    d = sun_blocks(4)
    out = legal_of(tmp_path, [(d, sun_by_p1(d) + no_declarations(4)[:2])])
    assert (out["phase"], out["seat"]) == ("declaring", 3)
    assert same_actions(
        out["actions"],
        [
            {"seat": 3, "declare": []},
            {"seat": 3, "declare": [{"project": "hundred", "cards": ["KS", "KD", "KC", "KH"]}]},
        ],
    )


def test_legal_playing_lists_baloot_variants(tmp_path: Path) -> None:
    """notation.md: each legal card, and the same card with baloot where it applies."""
    d = hokum_blocks(4)
    actions = hokum_by_p1(d) + no_declarations(4) + plays(d, HOKUM_84_78[:6]) + [play(4, "TS")]
    out = legal_of(tmp_path, [(d, actions)])
    assert (out["phase"], out["seat"]) == ("playing", 1)
    assert same_actions(
        out["actions"],
        [play(1, "QS"), play(1, "QS", True), play(1, "KS"), play(1, "KS", True)],
    )


def test_legal_playing_lists_sawa(tmp_path: Path) -> None:
    """notation.md: Sawa when valid (P1 holds every spade in Sun)."""
    d = sweep_deal(4)
    out = legal_of(tmp_path, [(d, sun_by_p1(d) + no_declarations(4))])
    expected = [play(1, c) for c in d.hands[1]] + [{"seat": 1, "sawa": True}]
    assert same_actions(out["actions"], expected)


def test_legal_round_over_gives_the_next_dealer(tmp_path: Path) -> None:
    """notation.md: round_over: seat null, next_dealer added."""
    out = legal_of(tmp_path, [hokum_doubled_round()])
    assert out == {"phase": "round_over", "seat": None, "actions": [], "next_dealer": 1}


def test_legal_match_over_gives_the_winner(tmp_path: Path) -> None:
    """notation.md: match_over: seat null, winner added."""
    out = legal_of(tmp_path, won_match(), mode="quick")
    assert out == {"phase": "match_over", "seat": None, "actions": [], "winner": "A"}


# Seat 2's (P2's) first five cards are all 7, 8 or 9 (rules-decisions D7).
ZERO = {
    1: "AS TS KS QS JS 9S 8S JC",
    2: "7H 8H 9H 7D 8D AH TH KH",
    3: "9D 7C 8C 9C 7S QH JH AD",
    4: "TD KD QD JD AC TC KC QC",
}


def test_legal_lists_the_redeal_and_keeps_the_dealer(tmp_path: Path) -> None:
    """notation.md: the legal list includes the redeal (D7); after it the
    round is over and the same dealer deals next."""
    d = deal(4, ZERO, "QC", 4)
    out = legal_of(tmp_path, [(d, [bid(1, "pass")])])
    assert same_actions(
        out["actions"],
        [bid(2, "pass"), bid(2, "sun"), bid(2, "hokum"), {"seat": 2, "redeal": True}],
    )
    out = legal_of(tmp_path, [(d, [bid(1, "pass"), {"seat": 2, "redeal": True}])])
    assert out == {"phase": "round_over", "seat": None, "actions": [], "next_dealer": 4}
    result = ok_json(
        cli(
            tmp_path,
            "score",
            document("classic", [(d, [bid(1, "pass"), {"seat": 2, "redeal": True}])]),
        )
    )
    assert result["rounds"][0]["outcome"] == "redeal"
    assert result["score"] == {"A": 0, "B": 0}


def test_legal_reports_the_first_illegal_action(tmp_path: Path) -> None:
    """notation.md: errors and exit codes as for score."""
    doc = document("classic", [(sun_blocks(4), [bid(1, "pass"), bid(2, "ashkal")])])
    assert error_of(cli(tmp_path, "legal", doc)) == (1, 2)


# --- standard library only ----------------------------------------------------


FRESH = """
import importlib.util, json, runpy, sys, sysconfig
repo, path = sys.argv[1], sys.argv[2]
sys.path.insert(0, repo)
assert importlib.util.find_spec("django") is None, "Django is on the path"
import games.rules
stdlib = [sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib")]
for name, module in list(sys.modules.items()):
    origin = getattr(module, "__file__", None)
    if origin and not origin.startswith(repo):
        assert any(origin.startswith(p) for p in stdlib), (name, origin)
sys.argv = ["games.rules", "score", path]
try:
    runpy.run_module("games.rules", run_name="__main__", alter_sys=True)
except SystemExit as stop:
    assert stop.code in (None, 0), stop.code
"""


def test_rules_need_only_the_standard_library(tmp_path: Path) -> None:
    """Issue 2 / style.md: games.rules imports and ``score`` runs in a fresh
    interpreter (-I -S: no site-packages, so no Django) and loads nothing
    outside the standard library and the repository."""
    doc = document("classic", [hokum_doubled_round()])
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", FRESH, str(REPO), str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["score"] == {"A": 34, "B": 0}
