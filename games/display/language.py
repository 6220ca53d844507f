"""The language a WebSocket speaks: pushes are rendered in it, as the pages are."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


def language_of(scope: dict[str, Any]) -> str:
    """The language to render in: the language cookie, else the browser's preference."""
    cookies = scope.get("cookies") or {}
    candidates = [cookies.get(settings.LANGUAGE_COOKIE_NAME, "")]
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            header = value.decode("latin-1")
            candidates += [code for code, _q in parse_accept_lang_header(header)]
    for code in candidates:
        if not code or code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
