"""No deal in progress can be seen through any replay or export address, by anyone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules
from games.match import services
from games.match.models import Event, Match
from tests.history.pages import cards_shown, engine_deals, replay_url

pytestmark = pytest.mark.django_db

# Steps of every kind: in range, negative, huge, not numbers, an Arabic-Indic one.
STEPS = ["0", "1", "5", "-1", "999999", "9" * 30, "abc", "1.0", " 1", "+1", "", "\u0661"]


def secret_cards(match: Match) -> set[str]:
    """The cards of the deal in progress that no page may show: every hand's unplayed cards."""
    deal = engine_deals(match)[-1]
    assert not deal.finished
    state = deal.states[-1]
    return {card for seat in (1, 2, 3, 4) for card in rules.view_for(state, seat)["hand"]}


def current_seed(match: Match) -> str:
    event = Event.objects.filter(match=match, kind=Event.Kind.DEAL).order_by("-seq").first()
    assert event is not None
    return event.payload["deal"]["seed"]


def assert_nothing_of_the_live_deal(client, match: Match, params: dict[str, str]) -> None:
    """Every replay and export address answers 404; the match page shows no hand nor seed."""
    dealt = Event.objects.filter(match=match, kind=Event.Kind.DEAL).count()
    for number in range(1, dealt + 3):
        if number < dealt:
            continue  # finished deals may be replayed
        assert client.get(replay_url(match, number, **params)).status_code == 404
        for step in STEPS:
            response = client.get(replay_url(match, number), {"step": step, **params})
            assert response.status_code == 404, (number, step)
            htmx = client.get(
                replay_url(match, number), {"step": step, **params}, HTTP_HX_REQUEST="true"
            )
            assert htmx.status_code == 404
    for path in (f"/matches/{match.pk}/deals/0/", f"/matches/{match.pk}/deals/-1/"):
        assert client.get(path, params).status_code == 404
    assert client.get(reverse("games:export", args=[match.pk]), params).status_code == 404
    page = client.get(reverse("games:detail", args=[match.pk]), params)
    if page.status_code == 200:
        html = page.content.decode()
        assert current_seed(match) not in html
        assert not cards_shown(html) & secret_cards(match)


@pytest.mark.parametrize("deals_before", [0, 2])
def test_running_match_hides_its_current_deal_from_players_spectators_and_strangers(
    client, new_match, make_user, deals_before
):
    player = new_match(seed=21)
    player.play_deals(deals_before)
    for _ in range(9):  # well into the deal: bids, calls and some cards
        player.act()
    match = player.match
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    spectator = make_user("spectator")
    for user in (*player.players.values(), spectator):
        client.force_login(user)
        assert_nothing_of_the_live_deal(client, match, {})
    # The finished deals stay replayable, and never show the live deal's cards.
    client.force_login(spectator)
    for number in range(1, deals_before + 1):
        response = client.get(replay_url(match, number, 0))
        assert response.status_code == 200
        assert current_seed(match) not in response.content.decode()


def test_private_running_match_is_missing_for_strangers_and_hidden_for_the_invited(
    client, new_match, make_user
):
    player = new_match(private=True, seed=22)
    player.finish_deal()
    player.act()
    match = player.match
    stranger = make_user("stranger")
    client.force_login(stranger)
    assert client.get(replay_url(match, 1, 0)).status_code == 404
    assert client.get(reverse("games:detail", args=[match.pk])).status_code == 404
    assert_nothing_of_the_live_deal(client, match, {})
    # The invite link leaves its token in the session (games.match.invites).
    invited = client.get(reverse("games:detail", args=[match.pk]), {"invite": match.invite_token})
    assert invited.status_code == 302
    assert_nothing_of_the_live_deal(client, match, {})
    assert client.get(replay_url(match, 1, 0)).status_code == 200


def test_the_unfinished_deal_of_an_aborted_match_stays_hidden(client, new_match, players):
    player = new_match(seed=23)
    player.finish_deal()
    for _ in range(12):
        player.act()
    match = services.abort_match(player.match)
    client.force_login(players[1])
    assert client.get(replay_url(match, 1, 0)).status_code == 200
    for step in STEPS:
        assert client.get(replay_url(match, 2), {"step": step}).status_code == 404
    # Its export holds the finished deal alone.
    response = client.get(reverse("games:export", args=[match.pk]))
    assert response.status_code == 200
    document = rules.read_document(response.content)
    assert len(document.rounds) == 1
    assert current_seed(match) not in response.content.decode()


def test_pages_need_a_login(client, finished: Match):
    for url in (
        reverse("games:mine"),
        reverse("games:import"),
        replay_url(finished, 1, 0),
        reverse("games:export", args=[finished.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))


def test_unknown_matches_and_deals_are_404(client, finished: Match, players):
    client.force_login(players[1])
    deals = len(engine_deals(finished))
    assert client.get(replay_url(finished, deals, 0)).status_code == 200
    assert client.get(replay_url(finished, deals + 1, 0)).status_code == 404
    assert client.get(f"/matches/{finished.pk + 100}/deals/1/").status_code == 404
    assert client.get(f"/matches/{finished.pk + 100}/notation/").status_code == 404
