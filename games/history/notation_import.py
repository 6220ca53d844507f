"""Uploading a ``baloot/1`` document: read it, let the rules engine judge it, queue it.

The upload is bounded before anything is parsed (1 MB, at most
``IMPORT_MAX_DEALS`` deals, no abusive nesting). ``rules.read_document``
rejects what is malformed before any rule is applied (not JSON, another
notation, a deck that is not 32 distinct cards...); ``services.queue_import``
replays the rest through the engine and queues nothing unless every deal is
legal and finished. Either way the form's error says what is wrong and, once
the rules are involved, at which round and action. The worker then stores
the deals in the background (``games.worker.imports``), and the job's page
follows it until the match is there.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import rules
from games.match import services
from games.match.errors import ServiceError
from games.match.models import ImportJob
from games.match.rule_messages import rule_message

MAX_DOCUMENT_BYTES = 1024 * 1024


class TooDeep(Exception):
    """The document nests arrays or objects deeper than Python's JSON reader goes."""


def count_deals(text: str) -> int | None:
    """How many rounds the document lists, read before the engine runs; None if unreadable.

    Raises TooDeep for nesting deep enough to exhaust the reader's recursion.
    """
    try:
        data = json.loads(text)
    except RecursionError:
        raise TooDeep() from None
    except ValueError:
        return None
    rounds = data.get("rounds") if isinstance(data, dict) else None
    return len(rounds) if isinstance(rounds, list) else None


class ImportForm(forms.Form):
    """One notation file; cleaning it reads the document (``cleaned_data["document"]``,
    its text in ``text``)."""

    text = ""

    document = forms.FileField(
        label=_("Notation file"),
        help_text=_("A baloot/1 match document (JSON), at most 1 MB."),
    )

    def clean_document(self) -> rules.Document:
        """The uploaded file as a document; raises ValidationError saying what is wrong."""
        upload = self.cleaned_data["document"]
        if upload.size > MAX_DOCUMENT_BYTES:
            raise forms.ValidationError(
                _("The file is too large: a document may be at most 1 MB."), code="too_large"
            )
        data = upload.read(MAX_DOCUMENT_BYTES + 1)
        try:
            # A byte-order mark, as some editors write, is not part of the JSON.
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(
                _("The file is not UTF-8 text, so it cannot be a baloot/1 document."),
                code="not_text",
            ) from None
        try:
            deals = count_deals(text)
        except TooDeep:
            raise forms.ValidationError(
                _("This document nests lists and objects far too deep to be baloot/1."),
                code="too_deep",
            ) from None
        if deals is not None and deals > settings.IMPORT_MAX_DEALS:
            raise forms.ValidationError(
                _(
                    "This document holds %(deals)s deals; a match may have at most "
                    "%(limit)s deals to be imported."
                ),
                code="too_many_deals",
                params={"deals": deals, "limit": settings.IMPORT_MAX_DEALS},
            )
        try:
            document = rules.read_document(text)
        except rules.MalformedDocument as error:
            raise forms.ValidationError(
                _("This is not a valid baloot/1 document: %(problem)s"),
                code="malformed",
                params={"problem": rule_message(error)},
            ) from None
        self.text = text
        return document


def import_upload(user: Any, form: ImportForm) -> ImportJob | None:
    """The import queued from a valid form, or None with the form's errors saying why not."""
    if not form.is_valid():
        return None
    try:
        return services.queue_import(
            user,
            form.cleaned_data["document"],
            form.text,
            language=translation.get_language() or "",
        )
    except ServiceError as error:
        form.add_error("document", str(error))
        return None
