"""The replay viewer: every step of every finished deal shows the engine's state."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules
from games.match.models import Match
from tests.history.pages import (
    action_items,
    card_points,
    engine_deals,
    get_replay,
    hands,
    replay_url,
    step_and_last,
    trick,
)

pytestmark = pytest.mark.django_db


def test_every_step_of_every_deal_equals_the_engine_state(client, finished: Match, players):
    client.force_login(players[2])
    deals = engine_deals(finished)
    assert len(deals) >= 3
    autos = 0
    for deal in deals:
        assert deal.finished
        last = len(deal.actions)
        for step, state in enumerate(deal.states):
            html = get_replay(client, finished, deal.number, step)
            assert step_and_last(html) == (step, last)
            assert hands(html) == {
                seat: rules.view_for(state, seat)["hand"] for seat in (1, 2, 3, 4)
            }, (deal.number, step)
            public = rules.view_for(state, None)
            assert trick(html) == [card["card"] for card in public["trick"]]
            assert card_points(html) == public["card_points"]
            if state.turn is not None:
                assert f"{players[state.turn].username} to " in html
            else:
                assert "The deal is over." in html
        items = action_items(html)
        assert [s for s, _css, _inner in items] == list(range(1, last + 1))
        timer_marks = sum(1 for _s, _css, inner in items if "badge-auto" in inner)
        deal_autos = sum(1 for action in deal.actions if action.get("auto"))
        assert timer_marks == deal_autos
        autos += deal_autos
    assert autos > 0, "the fixture match should hold timer-forced actions"


def test_the_end_step_shows_the_full_scoring_of_the_deal(client, finished: Match, players):
    client.force_login(players[1])
    for deal in engine_deals(finished):
        result = deal.states[-1].results[-1].explain()
        html = get_replay(client, finished, deal.number, len(deal.actions))
        assert "How the deal was scored" in html
        if result["outcome"] in ("played", "sawa"):
            for label in ("Card points from tricks", "Last trick", "Total", "Points this deal"):
                assert label in html
            points_row = html.split("Points this deal", 1)[1].split("</tr>", 1)[0]
            assert f">{result['points']['A']}<" in points_row
            assert f">{result['points']['B']}<" in points_row
        earlier = get_replay(client, finished, deal.number, len(deal.actions) - 1)
        assert "How the deal was scored" not in earlier


def test_navigation_links_and_keyboard_script(client, finished: Match, players):
    client.force_login(players[1])
    deal = engine_deals(finished)[0]
    last = len(deal.actions)
    first_page = get_replay(client, finished, 1, 0)
    assert 'data-replay-key="next"' in first_page
    assert 'data-replay-key="prev"' not in first_page
    assert f'href="{replay_url(finished, 1, 1)}"' in first_page.replace("&amp;", "&")
    assert f'href="{replay_url(finished, 1, last)}"' in first_page
    assert "js/replay.js" in first_page
    middle = get_replay(client, finished, 1, 5)
    for key, step in (("first", 0), ("prev", 4), ("next", 6), ("last", last)):
        assert f'href="{replay_url(finished, 1, step)}" ' in middle, key
        assert f'data-replay-key="{key}"' in middle
    last_page = get_replay(client, finished, 1, last)
    assert 'data-replay-key="next"' not in last_page
    assert 'data-replay-key="last"' not in last_page
    # Without a step, the replay opens at the deal just dealt.
    response = client.get(replay_url(finished, 1))
    assert step_and_last(response.content.decode()) == (0, last)


def test_trick_links_jump_to_the_step_that_completes_each_trick(client, finished, players):
    client.force_login(players[1])
    for deal in engine_deals(finished):
        completed = [
            step
            for step, state in enumerate(deal.states)
            if step and len(state.tricks) > len(deal.states[step - 1].tricks)
        ]
        html = get_replay(client, finished, deal.number, 0)
        nav = html.split('aria-label="Jump to a trick"', 1)
        if not completed:
            assert len(nav) == 1
            continue
        links = [replay_url(finished, deal.number, step) for step in completed]
        hrefs = [part.split('"', 1)[0] for part in nav[1].split("</nav>", 1)[0].split('href="')[1:]]
        assert hrefs == links


def test_replay_keeps_the_invite_of_a_private_match(client, new_match, make_user):
    player = new_match(mode="quick", private=True, seed=11)
    player.finish_deal()
    match = player.match
    client.force_login(make_user("guest"))
    assert client.get(replay_url(match, 1, 0)).status_code == 404
    # The link's token goes to the session; the replay's links carry none.
    first = client.get(replay_url(match, 1, 0, invite=match.invite_token))
    assert first.status_code == 302
    assert first["Location"] == replay_url(match, 1, 0)
    html = client.get(first["Location"]).content.decode()
    assert f'href="{replay_url(match, 1, 1)}"' in html
    assert match.invite_token not in html
    detail = client.get(reverse("games:detail", args=[match.pk])).content.decode()
    assert f'href="{replay_url(match, 1)}"' in detail
    assert match.invite_token not in detail
