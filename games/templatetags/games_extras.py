"""Template helpers of the games pages."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def lookup(mapping: dict[Any, Any], key: Any) -> Any:
    """``mapping[key]`` in a template, or an empty string when it is missing."""
    return mapping.get(key, "")
