"""The Permissions-Policy header: browser features the site never uses, switched off."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


def permissions_policy(features: Mapping[str, Sequence[str]]) -> str:
    """The header's value: ``camera=()`` for a feature allowed nowhere, ``x=(self)`` for ours."""
    return ", ".join(
        f"{feature}=({' '.join(origins)})" for feature, origins in sorted(features.items())
    )


class PermissionsPolicyMiddleware:
    """Add ``settings.PERMISSIONS_POLICY`` to every response that lacks the header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.value = permissions_policy(settings.PERMISSIONS_POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if self.value and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = self.value
        return response
