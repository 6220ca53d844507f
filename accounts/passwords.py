"""A password validator beside Django's: the site's own words are not a password."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# Words anyone would try first against this site, with digits or symbols
# around them: "baloot123", "Baloot!2024", "sun-hokum".
SITE_WORDS = ("baloot", "balot", "hokum", "hokm", "sun", "sira", "password")
DECORATION = re.compile(r"[\W\d_]+")


class SiteWordsValidator:
    """Refuse a password that is only the site's words with digits or symbols around them."""

    def validate(self, password: str, user: Any = None) -> None:
        """Raises ValidationError when the password is made of site words only."""
        letters = DECORATION.sub(" ", password.casefold()).split()
        if letters and all(word in SITE_WORDS for word in letters):
            raise ValidationError(
                _("This password is too easy to guess: it is the name of the game."),
                code="password_site_word",
            )

    def get_help_text(self) -> str:
        return _("Your password cannot be just the name of the game with some digits.")
