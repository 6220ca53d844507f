"""Forms of the accounts pages."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm):
    """A username and a password checked by the site's password validators."""

    class Meta:
        model = User
        fields = ("username",)
        field_classes = {"username": UsernameField}
        help_texts = {
            "username": _("Shown at the table. Letters, digits and @/./+/-/_ only."),
        }
