"""Forms of the accounts pages."""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs import confusables
from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


def refuse_confusable(name: str) -> None:
    """Raise ValidationError for a name mixing scripts with look-alikes (Cyrillic "a" in "admin").

    A name in one script ("Ахмед", "أحمد", "admin") is fine; a name whose
    letters come from several scripts and could pass for another name is not.
    """
    normal = unicodedata.normalize("NFKC", name)
    if confusables.is_dangerous(normal):
        raise forms.ValidationError(
            _(
                "This username mixes letters of different alphabets that look alike, so it "
                "could pass for someone else's. Use letters of one alphabet."
            ),
            code="confusable",
        )


class SignUpForm(UserCreationForm):
    """A username and a password checked by the site's password validators."""

    class Meta:
        model = User
        fields = ("username",)
        field_classes = {"username": UsernameField}
        help_texts = {
            "username": _("Shown at the table. Letters, digits and @/./+/-/_ only."),
        }

    def clean_username(self) -> str:
        """The username unless taken or a look-alike; raises ValidationError."""
        username = str(super().clean_username())
        refuse_confusable(username)
        return username
