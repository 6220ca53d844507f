"""The admin's match page links to the match's replay and its notation download."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.match.models import Match

pytestmark = pytest.mark.django_db


def change_page(admin_client, match: Match) -> str:
    response = admin_client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_finished_match_links_to_its_replay_and_notation(admin_client, finished: Match):
    html = change_page(admin_client, finished)
    replay = reverse("games:replay", args=[finished.pk, 1])
    export = reverse("games:export", args=[finished.pk])
    assert f'href="{replay}"' in html
    assert f'href="{export}"' in html
    assert f'href="{reverse("games:detail", args=[finished.pk])}"' in html
    # Staff may follow them, private or not.
    assert admin_client.get(replay).status_code == 200
    assert admin_client.get(export).status_code == 200


def test_running_match_links_to_finished_deals_only(admin_client, new_match):
    player = new_match(private=True, seed=81)
    html = change_page(admin_client, player.match)
    assert reverse("games:replay", args=[player.match.pk, 1]) not in html
    assert reverse("games:export", args=[player.match.pk]) not in html
    player.finish_deal()
    html = change_page(admin_client, player.match)
    assert f'href="{reverse("games:replay", args=[player.match.pk, 1])}"' in html
    assert reverse("games:export", args=[player.match.pk]) not in html
    assert admin_client.get(reverse("games:replay", args=[player.match.pk, 2])).status_code == 404
