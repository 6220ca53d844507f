"""The languages the site speaks besides English, as ``settings.LANGUAGES`` spells them."""

from __future__ import annotations

from django.conf import settings

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
