"""The notation import as a background job: judged in the request, stored by the worker a
deal per transaction, followed on its own page, failures told to the uploader."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError
from django.urls import reverse
from django.utils import timezone

from games import rules
from games.match import services
from games.match.errors import InvalidDocument
from games.match.event_log import first_inconsistency, load_state
from games.match.models import Event, ImportJob, Match
from games.worker import imports, in_server
from stacks.documents import long_document
from tests.support.imports import store_queued_imports
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db

DEALS = 23


def upload(client, text: str):
    return client.post(
        reverse("games:import"), {"document": SimpleUploadedFile("match.json", text.encode())}
    )


@pytest.fixture
def uploader():
    return create_player("uploader")


def test_an_upload_is_queued_then_stored_a_few_deals_per_pass(uploader, settings):
    settings.IMPORT_DEALS_PER_PASS = 5
    text = long_document(DEALS)
    browser = client_for(uploader)
    response = upload(browser, text)
    job = ImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:import_job", args=[job.pk])
    assert job.status == ImportJob.Status.QUEUED
    assert job.deals_total == DEALS
    assert not Match.objects.exists()

    page = browser.get(response["Location"])
    assert page.status_code == 200
    assert "Importing… 0 of 23 deals stored." in page.content.decode()
    # A polite refresh, no script: the page follows the job by reloading.
    assert page["Refresh"] == "2"

    assert imports.store_some() is True
    job.refresh_from_db()
    match = job.match
    assert job.status == ImportJob.Status.RUNNING
    assert job.deals_stored == 5
    assert match is not None
    assert match.status == Match.Status.IMPORTING
    assert Event.objects.filter(match=match, kind=Event.Kind.DEAL).count() == 5
    # Half a match is shown to nobody, its uploader and staff included.
    assert browser.get(match.get_absolute_url()).status_code == 404
    assert browser.get(reverse("play:table", args=[match.pk])).status_code == 404
    assert "Importing… 5 of 23 deals stored." in browser.get(response["Location"]).content.decode()

    assert store_queued_imports() == 4
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE
    assert job.document == ""
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.imported
    assert match.is_private
    assert match.creator == uploader
    assert first_inconsistency(match) is None
    expected = rules.replay_document(rules.read_document(text))
    assert (match.score_a, match.score_b) == (expected.score["A"], expected.score["B"])
    assert load_state(match).results == expected.results

    done = browser.get(response["Location"])
    assert done.status_code == 302
    assert done["Location"] == match.get_absolute_url()
    assert browser.get(done["Location"]).status_code == 200
    listing = browser.get(reverse("games:import")).context
    assert list(listing["imported"]) == [match]
    assert list(listing["pending"]) == []


def test_each_deal_is_committed_on_its_own_and_a_failed_pass_resumes(
    uploader, settings, monkeypatch
):
    """A database failure mid-pass keeps the deals already stored; once the lease of
    the failed worker ends, the next pass carries on from the last stored deal."""
    settings.IMPORT_DEALS_PER_PASS = 10
    upload(client_for(uploader), long_document(DEALS))
    real_store = services._store_deal
    calls = 0

    def failing_third(*args, **kwargs):
        nonlocal calls
        calls += 1
        if calls == 3:
            raise DatabaseError("the database went away")
        return real_store(*args, **kwargs)

    monkeypatch.setattr(services, "_store_deal", failing_third)
    with pytest.raises(DatabaseError):
        imports.store_some()
    job = ImportJob.objects.get()
    assert job.deals_stored == 2
    assert Event.objects.filter(match=job.match, kind=Event.Kind.DEAL).count() == 2
    # Still held by the failed worker: nobody takes it over yet.
    assert imports.store_some() is False
    later = timezone.now() + services.IMPORT_LEASE + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    store_queued_imports()
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE
    assert first_inconsistency(job.match) is None
    assert job.match.seq == Event.objects.filter(match=job.match).count()


def test_a_job_that_cannot_be_stored_says_why_and_keeps_nothing(uploader, settings, monkeypatch):
    settings.IMPORT_DEALS_PER_PASS = 5
    browser = client_for(uploader, language="ar")
    response = upload(browser, long_document(DEALS))
    imports.store_some()
    partial = ImportJob.objects.get().match
    assert partial is not None

    def refuse(*args, **kwargs):
        raise InvalidDocument(services._("The document holds no deal to replay."))

    monkeypatch.setattr(services, "_store_deal", refuse)
    imports.store_some()
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED
    assert not Match.objects.filter(pk=partial.pk).exists()
    assert not Event.objects.exists()
    # Worded in the uploader's language.
    assert job.error == "لا يحتوي المستند على جولة لإعادتها."
    page = browser.get(response["Location"])
    assert page.status_code == 200
    assert job.error in page.content.decode()
    assert "Refresh" not in page


def test_an_unexpected_failure_is_reported_not_left_spinning(uploader, monkeypatch):
    response = upload(client_for(uploader), long_document(DEALS))

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(services, "_store_deal", broken)
    imports.store_some()
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED
    assert job.error == "The import failed on the server; nothing was kept."
    page = client_for(uploader).get(response["Location"]).content.decode()
    assert "could not be imported" in page
    assert not Match.objects.exists()


def test_only_the_uploader_follows_an_import(uploader):
    response = upload(client_for(uploader), long_document(3))
    assert client_for(create_player("nosy")).get(response["Location"]).status_code == 404


def test_the_worker_inside_the_server_stores_imports_and_does_the_chores(
    uploader, settings, monkeypatch
):
    """WORKER_IN_SERVER has no separate worker: its passes store uploads and expire tables."""
    settings.IMPORT_DEALS_PER_PASS = 100
    settings.WAITING_TABLE_EXPIRY_SECONDS = 60
    upload(client_for(uploader), long_document(DEALS))
    forgotten = services.create_match(uploader)
    Match.objects.filter(pk=forgotten.pk).update(created_at=timezone.now() - timedelta(hours=1))
    monkeypatch.setattr(in_server, "_chores", in_server.Chores())
    played, _until = in_server._pass()
    assert played == 1
    assert ImportJob.objects.get().status == ImportJob.Status.DONE
    assert not Match.objects.filter(pk=forgotten.pk).exists()
