"""Uploading a ``baloot/1`` document: read it, let the rules engine judge it, store it.

``rules.read_document`` rejects what is malformed before any rule is applied
(not JSON, another notation, a deck that is not 32 distinct cards...);
``services.import_match`` replays the rest through the engine and stores
nothing unless every deal is legal and finished. Either way the form's error
says what is wrong and, once the rules are involved, at which round and
action.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games import rules
from games.match import services
from games.match.errors import ServiceError
from games.match.models import Match
from games.match.rule_messages import rule_message

MAX_DOCUMENT_BYTES = 1024 * 1024


class ImportForm(forms.Form):
    """One notation file; cleaning it reads the document (``cleaned_data["document"]``)."""

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
            return rules.read_document(text)
        except rules.MalformedDocument as error:
            raise forms.ValidationError(
                _("This is not a valid baloot/1 document: %(problem)s"),
                code="malformed",
                params={"problem": rule_message(error)},
            ) from None


def import_upload(user: Any, form: ImportForm) -> Match | None:
    """The match imported from a valid form, or None with the form's errors saying why not."""
    if not form.is_valid():
        return None
    try:
        return services.import_match(user, form.cleaned_data["document"])
    except ServiceError as error:
        form.add_error("document", str(error))
        return None
