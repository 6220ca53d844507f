"""Scoring a deal and the match: D16 and D21-D29.

Card points (abnat) become game points per team (D22), the deal's winner is
decided on game points with projects and without Baloot (D21), then the
defeat transfer (D23), winner-take-all for doubled deals (D24) or Gahwa (D16)
apply, and the match ends at 152 (D27-D29).
"""

from __future__ import annotations

from .cards import SUITS
from .projects import VALUES
from .shapes import ResultContract
from .state import TARGET, Draft, Phase, RoundResult, team_index

SWEEP_BONUS = 90  # D21, D25
LAST_TRICK_BONUS = 10  # D1, D21
BALOOT_CARD_POINTS = 20  # D21a
BALOOT_GAME_POINTS = 2  # D21a, D22


def convert(total: int, sun: bool) -> int:
    """D22: card points to game points, before the multiplier.

    Sun/Ashkal: round to the nearest ten, a units digit of 5 staying as it
    is, then divide by 5. Hokum: round to the nearest ten, 5 rounding up,
    then divide by 10. Never raises.
    """
    if sun:
        units = total % 10
        if units < 5:
            return (total - units) // 5
        if units == 5:
            return total // 5
        return (total + 10 - units) // 5
    return (total + 5) // 10


def end_deal(st: Draft) -> None:
    """Scores the finished deal in ``st`` (a Draft) and moves the match on."""
    outcome = st.outcome
    if outcome in ("redeal", "all_passed"):
        _record(
            st,
            RoundResult(
                dealer=st.dealer,
                outcome=str(outcome),
                contract=None,
                card_points=(0, 0),
                projects=((), ()),
                baloot=(0, 0),
                points=(0, 0),
                score=(st.score_a, st.score_b),
                details={"redeal_seat": st.redeal_seat or None},
            ),
            None,
        )
        # D7: a redeal keeps the dealer; D6: all passes move it on.
        st.next_dealer = st.dealer if outcome == "redeal" else st.dealer % 4 + 1
        return
    _score_played(st)


def game_points(
    totals: list[int],
    converted: list[int],
    bidders: int,
    multiplier: int,
    gahwa: bool,
    first_doubler: int | None,
    baloots: list[int],
) -> tuple[int | None, list[int]]:
    """D21-D24: the deal's winning team (None on an undoubled tie) and each team's game
    points, from the teams' exact ``totals``, their ``converted`` game points, the
    bidders' team, the multiplier, Gahwa, the team that called the first Double and
    each team's Baloot count. The strong bot's forecast scores its guessed deals
    with it too."""
    # D21: game points decide, then the exact total; else a tie.
    if converted[0] != converted[1]:
        deal_winner: int | None = 0 if converted[0] > converted[1] else 1
    elif totals[0] != totals[1]:
        deal_winner = 0 if totals[0] > totals[1] else 1
    else:
        deal_winner = None
    doubled = multiplier > 1 or gahwa
    if doubled and deal_winner is None:
        # D24: on an exact tie the team that called the first Double loses.
        assert first_doubler is not None
        deal_winner = 1 - first_doubler
    points = [0, 0]
    if gahwa:
        assert deal_winner is not None
        points[deal_winner] = TARGET  # D16: 152 and nothing else.
    elif doubled:
        assert deal_winner is not None
        points[deal_winner] = (converted[0] + converted[1]) * multiplier + (
            BALOOT_GAME_POINTS * (baloots[0] + baloots[1])
        )
    elif deal_winner == 1 - bidders:
        # D23: the defeated bidders' points, Baloot included, go over.
        points[deal_winner] = (
            converted[0] + converted[1] + BALOOT_GAME_POINTS * (baloots[0] + baloots[1])
        )
    else:
        points = [converted[t] + BALOOT_GAME_POINTS * baloots[t] for t in (0, 1)]
    return deal_winner, points


def _score_played(st: Draft) -> None:
    contract = st.contract
    assert contract is not None
    sun = contract.sun
    bidders = team_index(contract.bidder)
    card_points = list(st.points)
    trick_teams = {team_index(trick.winner) for trick in st.tricks}
    if st.outcome == "sawa":
        trick_teams.add(team_index(st.leader))
    sweep = trick_teams.pop() if len(trick_teams) == 1 else None
    if sweep is not None:
        card_points[sweep] += SWEEP_BONUS
    last_trick = team_index(st.leader) if st.outcome == "sawa" else team_index(st.tricks[-1].winner)

    projects: list[list[tuple[int, str, int]]] = [[], []]
    if st.counting >= 0:
        for seat in st.order():
            if team_index(seat) == st.counting:
                for kind, _cards in st.declared[seat - 1] or ():
                    projects[st.counting].append((seat, kind, VALUES[kind]))
    project_totals = [sum(v for _, _, v in side) for side in projects]
    totals = [card_points[t] + project_totals[t] for t in (0, 1)]
    converted = [convert(totals[0], sun), convert(totals[1], sun)]

    baloots = [0, 0]
    for seat in range(1, 5):
        if st.baloot_done >> seat & 1:
            baloots[team_index(seat)] += 1

    multiplier = st.multiplier
    first_doubler = team_index(st.first_doubler) if st.first_doubler else None
    deal_winner, points = game_points(
        totals, converted, bidders, multiplier, st.gahwa, first_doubler, baloots
    )

    score_a = st.score_a + points[0]
    score_b = st.score_b + points[1]
    contract_json: ResultContract = {
        "type": contract.kind,
        "trump": SUITS[contract.trump] if contract.trump >= 0 else None,
        "bidder": contract.bidder,
        "multiplier": multiplier,
        "gahwa": st.gahwa,
        "lock": st.lock,
    }
    details = {
        "bidders": "AB"[bidders],
        "taker": contract.taker,
        "trick_points": {
            "A": st.points[0] - (LAST_TRICK_BONUS if last_trick == 0 else 0),
            "B": st.points[1] - (LAST_TRICK_BONUS if last_trick == 1 else 0),
        },
        "last_trick": "AB"[last_trick],
        "sweep": "AB"[sweep] if sweep is not None else None,
        "project_points": {"A": project_totals[0], "B": project_totals[1]},
        "totals": {"A": totals[0], "B": totals[1]},
        "converted": {"A": converted[0], "B": converted[1]},
        "deal_winner": "AB"[deal_winner] if deal_winner is not None else None,
        "defeated": deal_winner == 1 - bidders,
        "tie": converted[0] == converted[1] and totals[0] == totals[1],
        "baloot_count": {"A": baloots[0], "B": baloots[1]},
        "sawa_seat": st.leader if st.outcome == "sawa" else None,
        "first_doubler": st.first_doubler or None,
    }
    result = RoundResult(
        dealer=st.dealer,
        outcome=st.outcome or "played",
        contract=contract_json,
        card_points=(card_points[0], card_points[1]),
        projects=(tuple(projects[0]), tuple(projects[1])),
        baloot=(BALOOT_CARD_POINTS * baloots[0], BALOOT_CARD_POINTS * baloots[1]),
        points=(points[0], points[1]),
        score=(score_a, score_b),
        details=details,
    )
    winner: str | None = None
    if st.gahwa:
        winner = "AB"[points.index(TARGET)]  # D16, D29: the match ends at once.
    elif max(score_a, score_b) >= TARGET and score_a != score_b:
        winner = "A" if score_a > score_b else "B"  # D28
    setup = st.own_setup()
    setup.score_a, setup.score_b = score_a, score_b
    setup.next_dealer = setup.dealer % 4 + 1
    _record(st, result, winner)


def _record(st: Draft, result: RoundResult, winner: str | None) -> None:
    setup = st.own_setup()
    setup.results = (*setup.results, result)
    setup.winner = winner
    st.turn = None
    st.phase = Phase.MATCH_OVER if winner else Phase.ROUND_OVER
