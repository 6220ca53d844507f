"""Unknown keys nested too deep: refused at the import with a message, never a 500 at the export.

A document whose unknown keys nested a few hundred levels deep passed the
import (Python's JSON reader goes about a thousand deep) and was stored;
its export then recursed once per level and failed with a 500.
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import rules
from games.match.models import ImportJob, Match
from tests.support.imports import store_queued_imports

pytestmark = pytest.mark.django_db


def nested(depth: int) -> list[object]:
    """Lists inside lists, ``depth`` levels deep in all."""
    value: list[object] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def document_with(client: Client, match: Match, where: str, depth: int) -> bytes:
    """``match``'s export with an unknown key nesting ``depth`` deep at the top or in a round."""
    document = json.loads(client.get(reverse("games:export", args=[match.pk])).content)
    if where == "top":
        document["x-notes"] = nested(depth)
    else:
        document["rounds"][0]["x-notes"] = nested(depth)
    return json.dumps(document).encode()


def upload(client: Client, data: bytes):
    return client.post(reverse("games:import"), {"document": SimpleUploadedFile("m.json", data)})


@pytest.mark.parametrize("where", ["top", "round"])
@pytest.mark.parametrize("depth", [40, 500, 700])
def test_a_document_nested_too_deep_is_refused_with_a_message(
    client, finished: Match, players, where, depth
):
    client.force_login(players[1])
    response = upload(client, document_with(client, finished, where, depth))
    assert response.status_code == 200
    page = response.content.decode()
    assert f"lists and objects nest more than {rules.MAX_NESTING} levels deep" in page
    assert not ImportJob.objects.exists()


def test_unknown_keys_within_the_bound_go_there_and_back(client, finished: Match, players):
    client.force_login(players[1])
    data = document_with(client, finished, "round", 20)
    response = upload(client, data)
    assert response.status_code == 302
    store_queued_imports()
    job = ImportJob.objects.get()
    assert job.match is not None
    again = client.get(reverse("games:export", args=[job.match.pk]))
    assert again.status_code == 200
    assert json.loads(again.content)["rounds"][0]["x-notes"] == nested(20)


@pytest.mark.parametrize("depth", [40, 500])
def test_a_match_stored_before_the_bound_exports_as_a_clear_refusal(
    client, finished: Match, players, depth
):
    client.force_login(players[1])
    response = upload(client, document_with(client, finished, "top", 20))
    store_queued_imports()
    match = ImportJob.objects.get().match
    assert response.status_code == 302
    assert match is not None
    # As an import of the old code stored it, with its unknown key nesting deep.
    header = dict(match.notation_header)
    header["extra"] = {"x-notes": nested(depth)}
    Match.objects.filter(pk=match.pk).update(notation_header=header)
    exported = client.get(reverse("games:export", args=[match.pk]))
    assert exported.status_code == 409
    assert "This match cannot be written as a document" in exported.content.decode()
    assert client.get(match.get_absolute_url()).status_code == 200
