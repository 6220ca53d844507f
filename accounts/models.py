"""What the site remembers about a player beyond Django's user: their language."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """A player's saved preferences; created the first time one is saved."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    # A code from settings.LANGUAGES, or empty to follow the browser. Not a
    # choices field, so that adding a language needs no migration; the view
    # that saves it checks the code.
    language = models.CharField(_("language"), max_length=16, blank=True)
    # Off: the player sees no table chat and cannot write in it.
    chat_enabled = models.BooleanField(_("table chat"), default=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)
