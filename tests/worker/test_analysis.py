"""The worker's deal analysis: exact values per card, stored once per finished deal and
solver version, never for a deal in progress, and only when no turn is due."""

from __future__ import annotations

import itertools
import os
import random
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games import rules
from games.bots import choose_action
from games.management.commands import run_worker
from games.match import services
from games.match.finished_deals import finished_deal
from games.match.models import DealAnalysis, Match
from games.rules import solver
from games.worker import analysis, in_server
from games.worker.deal_analysis import analyse_deal, is_analysed
from tests.support.analysis import bot_match, cards_on_table, finish_deals, play_until
from tests.support.processes import Site, wait_until

TOTAL = {"sun": 130, "hokum": 162, "ashkal": 130}


def random_deal(seed: int) -> tuple[list[rules.State], list[dict[str, Any]]]:
    """A finished deal with cards played, by easy bots, and its states step by step."""
    rng = random.Random(seed)
    while True:
        state = rules.start_deal(rules.new_match(dealer=rng.randint(1, 4)), rules.random_deck(rng))
        states, actions = [state], []
        while state.phase not in (rules.Phase.ROUND_OVER, rules.Phase.MATCH_OVER):
            assert state.turn is not None
            action = choose_action(state, state.turn, level="easy")
            state = rules.apply(state, action)
            states.append(state)
            actions.append(action)
        if state.results[-1].outcome in ("played", "sawa"):
            return states, actions


def test_each_card_gets_its_exact_values_before_and_after():
    states, actions = random_deal(2)
    plays = analyse_deal(states, actions)
    cards = [(k, a) for k, a in enumerate(actions, 1) if "play" in a or a.get("sawa")]
    assert [p["step"] for p in plays] == [k for k, _a in cards]
    total = TOTAL[states[-1].results[-1].contract["type"]]
    for play, (step, action) in zip(plays, cards, strict=True):
        before = states[step - 1]
        team = (action["seat"] - 1) % 2
        assert play["seat"] == action["seat"]
        assert play["card"] == action.get("play")
        assert sum(play["before"]) == sum(play["after"]) == total
        assert play["loss"] == play["before"][team] - play["after"][team] >= 0
        assert (play["best"] == []) == (play["loss"] == 0)
        if len(before.tricks) < 4:
            # The first half is checked through the chain below; the solver's
            # own tests cover its values on every size of position.
            continue
        # Before: the tricks taken plus the solver's value of the position.
        value = solver.value(solver.position_of(before))
        assert play["before"] == [before.points[0] + value[0], before.points[1] + value[1]]
        assert play["loss"] == play["before"][team] - play["after"][team] >= 0
        if play["card"] is not None:
            options = solver.card_values(solver.position_of(before))
            best = max(v[team] for v in options.values())
            assert play["before"][team] - before.points[team] == best
            played = options[play["card"]]
            assert play["after"] == [before.points[0] + played[0], before.points[1] + played[1]]
        if play["loss"]:
            assert play["best"] == solver.best_cards(solver.position_of(before))
            assert play["card"] not in play["best"]
        else:
            assert play["best"] == []
    # The values chain from one card to the next, and end at the deal's card points.
    for first, second in itertools.pairwise(plays):
        assert first["after"] == second["before"]
    assert plays[-1]["after"] == list(states[-1].points)


def analysis_from_scratch(
    states: list[rules.State], actions: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The analysis with a fresh search for every figure: each position's value on
    its own, and the best cards from every card's exact value."""
    plays = []
    for step, action in enumerate(actions, 1):
        before = states[step - 1]
        if before.phase is not rules.Phase.PLAYING or not is_analysed(action):
            continue
        position = solver.position_of(before)
        value = solver.value(position)
        value_before = [before.points[0] + value[0], before.points[1] + value[1]]
        after = states[step]
        if after.phase is rules.Phase.PLAYING:
            value = solver.value(solver.position_of(after))
            value_after = [after.points[0] + value[0], after.points[1] + value[1]]
        elif "play" in action:
            value = solver.card_values(position)[action["play"]]
            value_after = [before.points[0] + value[0], before.points[1] + value[1]]
        else:
            rest = solver.remaining_points(position)
            claimed = [rest, 0] if action["seat"] % 2 else [0, rest]
            value_after = [before.points[0] + claimed[0], before.points[1] + claimed[1]]
        team = (action["seat"] - 1) % 2
        loss = max(0, value_before[team] - value_after[team])
        plays.append(
            {
                "step": step,
                "seat": action["seat"],
                "card": action.get("play"),
                "sawa": "play" not in action,
                "before": value_before,
                "after": value_after,
                "loss": loss,
                "best": solver.best_cards(position) if loss else [],
            }
        )
    return plays


def random_play(seed: int) -> tuple[list[rules.State], list[dict[str, Any]]]:
    """A finished deal of random bids and random cards (Baloot and Sawa claims
    included), from the start of its fifth trick: a mistake at almost every turn."""
    rng = random.Random(seed)
    while True:
        state = rules.start_deal(rules.new_match(dealer=rng.randint(1, 4)), rules.random_deck(rng))
        states, actions = [state], []
        while state.phase not in (rules.Phase.ROUND_OVER, rules.Phase.MATCH_OVER):
            action = rng.choice(rules.legal_actions(state))
            state = rules.apply(state, action)
            states.append(state)
            actions.append(action)
        start = next(
            (
                k
                for k, s in enumerate(states)
                if s.phase is rules.Phase.PLAYING and len(s.tricks) == 4
            ),
            None,
        )
        if start is not None:
            return states[start:], actions[start:]


def test_the_analysis_equals_fresh_searches_of_every_position():
    plays = 0
    claims = 0
    for seed in range(200):
        states, actions = random_play(seed)
        expected = analysis_from_scratch(states, actions)
        assert analyse_deal(states, actions) == expected, seed
        plays += len(expected)
        claims += sum(1 for p in expected if p["sawa"])
    assert plays > 2500
    assert claims


@pytest.mark.parametrize("seed", [3, 20])
def test_the_analysis_of_a_whole_deal_equals_fresh_searches(seed):
    states, actions = random_deal(seed)
    assert analyse_deal(states, actions) == analysis_from_scratch(states, actions)


@pytest.mark.soak
def test_the_analysis_of_many_whole_deals_equals_fresh_searches():
    for seed in range(100, 112):
        states, actions = random_deal(seed)
        assert analyse_deal(states, actions) == analysis_from_scratch(states, actions), seed


def test_a_deal_in_progress_is_refused():
    states, actions = random_deal(3)
    middle = next(k for k, s in enumerate(states) if s.phase is rules.Phase.PLAYING) + 5
    with pytest.raises(ValueError, match="finished"):
        analyse_deal(states[: middle + 1], actions[:middle])


@pytest.mark.django_db
def test_the_worker_analyses_finished_deals_once_and_never_the_live_one(players, settings):
    settings.ROUND_PAUSE_SECONDS = 0
    match = bot_match(players[1])
    cards_on_table(match, 6)
    match.refresh_from_db()
    live = match.deal_number
    # A deal is being played: whatever is asked, it is never analysed (deals
    # passed out before it may be).
    assert (match.pk, live) not in analysis.pending()
    while analysis.analyse_next() is not None:
        pass
    assert not DealAnalysis.objects.filter(number=live).exists()
    assert DealAnalysis.objects.count() == live - 1
    finish_deals(match, 1)
    match.refresh_from_db()
    done = match.deal_number - 1
    assert done >= 1
    assert analysis.pending()[0] == (match.pk, done)
    analysed = []
    while (found := analysis.analyse_next()) is not None:
        analysed.append(found)
    # The deal that just ended comes first.
    assert analysed[0] == (match.pk, done)
    # The deal now on the table has none.
    assert set(DealAnalysis.objects.values_list("number", flat=True)) == set(range(1, done + 1))
    row = DealAnalysis.objects.get(match=match, number=done)
    assert row.solver_version == solver.SOLVER_VERSION
    deal = finished_deal(match, done)
    assert deal is not None
    assert row.plays == analyse_deal(deal.states, deal.actions)
    # Stored once: nothing left to do until another deal ends.
    assert analysis.pending() == []
    assert analysis.analyse_next() is None


@pytest.mark.django_db
def test_an_analysis_of_another_solver_version_is_computed_again(players, settings):
    settings.ROUND_PAUSE_SECONDS = 0
    match = bot_match(players[1])
    state = finish_deals(match, 1)
    # Every finished deal analysed by an older solver: each is done again.
    count = len(state.results)
    number = next(n for n, r in enumerate(state.results, 1) if r.outcome in ("played", "sawa"))
    for n in range(1, count + 1):
        DealAnalysis.objects.create(
            match=match, number=n, solver_version=solver.SOLVER_VERSION + 1, plays=[]
        )
    assert analysis.pending() == [(match.pk, n) for n in range(count, 0, -1)]
    for n in range(1, count + 1):
        if n != number:
            DealAnalysis.objects.filter(match=match, number=n).update(
                solver_version=solver.SOLVER_VERSION
            )
    assert analysis.pending() == [(match.pk, number)]
    assert analysis.analyse_next() == (match.pk, number)
    row = DealAnalysis.objects.get(match=match, number=number)
    assert row.solver_version == solver.SOLVER_VERSION
    assert row.plays


def _finished(players: Any, settings: Any, deals: int) -> Match:
    """A bot match with ``deals`` deals finished and waiting for their analysis."""
    settings.ROUND_PAUSE_SECONDS = 0
    match = bot_match(players[1])
    finish_deals(match, deals)
    return match


@pytest.mark.django_db(transaction=True)
def test_the_analyst_works_in_its_own_process_and_only_when_idle(players, settings):
    match = _finished(players, settings, 1)
    analyst = analysis.Analyst()
    try:
        # A busy pass (turns were played) starts nothing.
        assert analyst.tick(idle=False) is False
        assert not analyst.busy
        analyst.tick(idle=True)
        assert analyst.busy
        # Meanwhile the worker goes on playing: the job runs elsewhere.
        wait_until(lambda: analyst.tick(idle=False), 120, "the analysis to be stored")
        assert not analyst.busy
        assert DealAnalysis.objects.filter(match=match).exists()
        # It has the processor only when no other process wants it.
        assert analyst.process_id is not None
        assert os.sched_getscheduler(analyst.process_id) == os.SCHED_IDLE
    finally:
        analyst.close()


def _stopped(pid: int) -> bool:
    """True when process ``pid`` is stopped (state T in /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] in ("T", "t")


LINUX_PROC = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads process states from /proc (Linux only)"
)


@LINUX_PROC
@pytest.mark.django_db(transaction=True)
def test_the_analysis_waits_while_the_worker_plays_and_goes_on_in_its_longer_sleeps(
    players, settings
):
    match = _finished(players, settings, 2)
    analyst = analysis.Analyst()
    try:
        analyst.tick(idle=True)
        assert analyst.busy
        pid = analyst.process_id
        assert pid is not None
        # A pass begins: the analysis under way stops.
        analyst.make_way()
        wait_until(lambda: _stopped(pid), 10, "the analysis to stop")
        # The next turn is due sooner than ROOM: it stays stopped.
        analyst.go_on_before(timezone.now() + timedelta(seconds=analysis.ROOM / 4))
        time.sleep(0.05)
        assert _stopped(pid)
        # A longer sleep, or one with no deadline known, lets it go on.
        analyst.go_on_before(timezone.now() + timedelta(seconds=1))
        wait_until(lambda: not _stopped(pid), 10, "the analysis to go on")
        analyst.make_way()
        wait_until(lambda: _stopped(pid), 10, "the analysis to stop again")
        analyst.go_on_before(None)
        wait_until(lambda: not _stopped(pid), 10, "the analysis to go on again")
        # Paused and continued, it still finishes its job; an answer that
        # waits while it is paused is collected all the same.
        wait_until(lambda: analyst._connection.poll(), 120, "the first answer")
        analyst.make_way()
        wait_until(lambda: _stopped(pid), 10, "the analysis to stop after answering")
        assert analyst.tick(idle=False) is True
        assert _stopped(pid)
        # The next job continues the process first: stopped, it would read nothing.
        analyst.tick(idle=True)
        assert analyst.busy
        wait_until(lambda: not _stopped(pid), 10, "the analysis to go on with the next job")
        wait_until(lambda: analyst.tick(idle=False), 120, "the analysis to be stored")
        assert DealAnalysis.objects.filter(match=match).count() == 2
        # With no job under way there is nothing to pause.
        analyst.make_way()
        time.sleep(0.05)
        assert not _stopped(pid)
    finally:
        analyst.close()


@LINUX_PROC
@pytest.mark.django_db(transaction=True)
def test_a_paused_analysis_ends_when_its_analyst_closes(players, settings):
    _finished(players, settings, 1)
    analyst = analysis.Analyst()
    try:
        analyst.tick(idle=True)
        pid = analyst.process_id
        assert pid is not None
        analyst.make_way()
        wait_until(lambda: _stopped(pid), 10, "the analysis to stop")
    finally:
        analyst.close()
    assert not Path(f"/proc/{pid}").exists()


@LINUX_PROC
def test_a_worker_that_exits_leaves_no_analysis_stopped(tmp_path: Path):
    # multiprocessing ends its children with SIGTERM at exit and waits for
    # them; the analyst lets a stopped analysis go on first, so the exit
    # does not wait for ever, however early in its start-up it was stopped.
    site = Site(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    out = site.shell(
        "from games.worker import analysis\n"
        "analyst = analysis.Analyst()\n"
        "analyst._spawn()\n"
        "analyst._job = object()\n"
        "analyst.make_way()\n"
        "print(analyst.process_id)\n"
    )
    pid = int(out.split()[-1])
    wait_until(lambda: not Path(f"/proc/{pid}").exists(), 10, "the analysis process to end")


@pytest.mark.django_db
def test_every_pass_makes_way_for_the_turns_before_playing_them(monkeypatch):
    calls: list[str] = []

    class Recording:
        def make_way(self) -> None:
            calls.append("make way")

    monkeypatch.setattr(in_server, "ANALYST", Recording())
    monkeypatch.setattr(in_server.heartbeat, "beat", lambda: None)
    monkeypatch.setattr(in_server._chores, "relay", lambda: 0)
    monkeypatch.setattr(in_server._chores, "store_imports", lambda: False)
    monkeypatch.setattr(in_server._chores, "run_due", lambda: None)
    monkeypatch.setattr(in_server.analysis, "analyse_safely", lambda _a, idle: None)
    monkeypatch.setattr(in_server.due_turns, "advance_due", lambda: calls.append("play") or 1)
    in_server._pass()
    worker = run_worker.Command()
    worker.analyst = Recording()
    worker.chores = in_server._chores
    monkeypatch.setattr(
        run_worker.due_turns, "advance_due", lambda shard: calls.append("play") or 1
    )
    monkeypatch.setattr(run_worker.heartbeat, "beat", lambda: None)
    worker.next_beat = float("inf")
    worker._pass()
    assert calls == ["make way", "play", "make way", "play"]


def test_the_embedded_worker_analyses_only_after_a_pass_with_nothing_due(monkeypatch):
    seen: list[bool] = []
    monkeypatch.setattr(in_server.heartbeat, "beat", lambda: None)
    monkeypatch.setattr(in_server._chores, "relay", lambda: 0)
    monkeypatch.setattr(in_server.due_turns, "next_deadline", lambda: None)
    monkeypatch.setattr(in_server._chores, "store_imports", lambda: False)
    monkeypatch.setattr(in_server._chores, "run_due", lambda: None)
    monkeypatch.setattr(in_server.analysis, "analyse_safely", lambda _a, idle: seen.append(idle))
    monkeypatch.setattr(in_server.due_turns, "advance_due", lambda: 2)
    in_server._pass()
    monkeypatch.setattr(in_server.due_turns, "advance_due", lambda: 0)
    in_server._pass()
    assert seen == [False, True]


def _ended_with_cards(state: rules.State) -> bool:
    return state.phase is rules.Phase.ROUND_OVER and state.results[-1].outcome in (
        "played",
        "sawa",
    )


@pytest.mark.django_db
def test_a_stopped_matchs_last_deal_is_analysed_when_it_had_ended(players, settings):
    settings.ROUND_PAUSE_SECONDS = 60
    match = bot_match(players[1])
    play_until(match, _ended_with_cards)
    stopped = services.abort_match(match.pk)
    assert stopped.last_deal_over is True
    last = stopped.deal_number
    assert (match.pk, last) in analysis.pending()
    while analysis.analyse_next() is not None:
        pass
    assert set(DealAnalysis.objects.values_list("number", flat=True)) == set(range(1, last + 1))
    assert analysis.pending() == []


@pytest.mark.django_db
def test_a_stopped_matchs_unfinished_last_deal_is_never_analysed(players, settings):
    settings.ROUND_PAUSE_SECONDS = 0
    match = bot_match(players[1])
    finish_deals(match, 1)
    cards_on_table(match, 5)
    stopped = services.abort_match(match.pk)
    assert stopped.last_deal_over is False
    last = stopped.deal_number
    while analysis.analyse_next() is not None:
        pass
    assert set(DealAnalysis.objects.values_list("number", flat=True)) == set(range(1, last))
    assert analysis.pending() == []


@pytest.mark.django_db
def test_a_match_stopped_before_the_site_noted_its_last_deal_is_read_once(players, settings):
    settings.ROUND_PAUSE_SECONDS = 60
    match = bot_match(players[1])
    play_until(match, _ended_with_cards)
    services.abort_match(match.pk)
    Match.objects.filter(pk=match.pk).update(last_deal_over=None)
    assert (match.pk, match.deal_number) in analysis.pending()
    assert Match.objects.get(pk=match.pk).last_deal_over is True
