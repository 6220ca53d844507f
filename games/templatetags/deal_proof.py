"""``{% deal_commitment match %}``: the commitment of the deal on the table, for any page."""

from __future__ import annotations

from typing import Any

from django import template

from games.history.deal_proof import current_deal
from games.match.models import Match

register = template.Library()


@register.inclusion_tag("games/deal_commitment.html")
def deal_commitment(match: Match) -> dict[str, Any]:
    """The commitment (never the seed) of the deal in progress at ``match``'s table, if any."""
    return {"current_deal": current_deal(match)}
