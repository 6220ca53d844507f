"""My matches: every match the user sat in, newest first, filtered and paginated."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.history.my_matches import PAGE_SIZE
from games.match import services
from games.match.models import Match
from tests.support.drivers import start_match

pytestmark = pytest.mark.django_db


def listed(client, **filters: str) -> list[int]:
    response = client.get(reverse("games:mine"), filters)
    assert response.status_code == 200
    return [line.match.pk for line in response.context["lines"]]


@pytest.fixture
def history(new_match, players, make_user):
    """For alice: a match won, a match lost, one being played, one waiting, one aborted."""
    won = lost = None
    seed = 40
    while won is None or lost is None:
        seed += 1
        match = new_match(mode="quick", seed=seed).finish_match()
        if match.winner == "A" and won is None:
            won = match
        elif match.winner == "B" and lost is None:
            lost = match
        else:
            match.delete()
    running = new_match(seed=50)
    running.finish_deal()
    waiting = services.create_match(players[1])
    aborted = services.abort_match(new_match(seed=51).match)
    # A match alice never sat in.
    others = {n: make_user(f"other{n}") for n in (1, 2, 3, 4)}
    start_match(others, seed=52)
    return {
        "won": won,
        "lost": lost,
        "running": running.match,
        "waiting": waiting,
        "aborted": aborted,
    }


def test_lists_every_match_the_user_sat_in_newest_first(client, players, history):
    client.force_login(players[1])
    expected = sorted(
        history.values(), key=lambda match: (match.created_at, match.pk), reverse=True
    )
    assert listed(client) == [match.pk for match in expected]


def test_filters_finished_running_won_and_lost(client, players, history):
    client.force_login(players[1])
    assert set(listed(client, status="finished")) == {history["won"].pk, history["lost"].pk}
    assert listed(client, status="running") == [history["running"].pk]
    assert listed(client, result="won") == [history["won"].pk]
    assert listed(client, result="lost") == [history["lost"].pk]
    assert listed(client, status="running", result="won") == []
    # Bob sits in team B: alice's win is his loss.
    client.force_login(players[2])
    assert listed(client, result="won") == [history["lost"].pk]
    assert listed(client, result="lost") == [history["won"].pk]
    # Unknown filter values are no filter at all.
    client.force_login(players[1])
    assert len(listed(client, status="everything", result="maybe")) == len(history)


def test_each_line_shows_partner_opponents_result_and_date(client, players, history):
    client.force_login(players[2])
    response = client.get(reverse("games:mine"), {"status": "finished"})
    lines = {line.match.pk: line for line in response.context["lines"]}
    line = lines[history["won"].pk]
    assert line.partner == "dave"
    assert line.opponents == ["alice", "carol"]
    assert line.won is False
    assert (line.us, line.them) == (history["won"].score_b, history["won"].score_a)
    assert line.date == history["won"].finished_at
    html = response.content.decode()
    assert "Quick" in html
    assert "Lost" in html
    assert "Won" in html
    assert reverse("games:detail", args=[history["won"].pk]) in html


def test_pagination_keeps_the_filters(client, players):
    for _ in range(PAGE_SIZE + 3):
        services.create_match(players[1])
    client.force_login(players[1])
    first = client.get(reverse("games:mine"))
    assert len(first.context["lines"]) == PAGE_SIZE
    assert first.context["page"].paginator.num_pages == 2
    html = first.content.decode()
    assert 'href="?page=2"' in html
    second = client.get(reverse("games:mine"), {"page": 2})
    assert len(second.context["lines"]) == 3
    everything = [line.match.pk for line in first.context["lines"]] + [
        line.match.pk for line in second.context["lines"]
    ]
    assert everything == list(
        Match.objects.order_by("-created_at", "-id").values_list("pk", flat=True)
    )
    # Out-of-range and nonsense pages fall back to a real page.
    assert client.get(reverse("games:mine"), {"page": 99}).context["page"].number == 2
    assert client.get(reverse("games:mine"), {"page": "x"}).context["page"].number == 1
    filtered = client.get(reverse("games:mine"), {"status": "running"}).content.decode()
    assert "page=" not in filtered


def test_the_page_costs_the_same_few_queries_however_many_matches(
    client, players, django_assert_max_num_queries
):
    for _ in range(PAGE_SIZE + 5):
        services.create_match(players[1])
    client.force_login(players[1])
    # Session and user, the count, the page of seats and their matches' seats.
    with django_assert_max_num_queries(6):
        response = client.get(reverse("games:mine"))
    assert len(response.context["lines"]) == PAGE_SIZE


def test_another_users_list_holds_only_their_matches(client, players, make_user):
    services.create_match(players[1])
    client.force_login(make_user("erin"))
    response = client.get(reverse("games:mine"))
    assert listed(client) == []
    assert "You have not played any match yet" in response.content.decode()
    assert (
        "No match fits these filters."
        in client.get(reverse("games:mine"), {"result": "won"}).content.decode()
    )
