"""Chat lines and rematch offers on the table's own WebSocket.

``TableConsumer`` mixes this in: besides its match group, each table socket
joins the table's social group (``games.social.broadcast.social_group``,
joined with the others in ``games.table.consumers``), whose messages carry only
a chat line's number or "the rematch changed". Each socket then reads what
its own user may see — their room's line unless they muted its author, the
rematch panel — and sends it as an htmx out-of-band swap. Nothing here
touches the match's events or its cards, and the table's own pushes pay
nothing for it: when a push shows the match is over, the page's script asks
for the rematch panel once (``static/js/social.js``).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import translation

from games.match.models import Match
from games.social import chat
from games.social.context import chat_line_context, rematch_context


class TableSocialMixin:
    """Chat and rematch pushes for one user's table socket (needs match_id, invite, language)."""

    match_id: int
    invite: str
    language: str
    scope: dict[str, Any]

    async def chat_message(self, event: dict[str, Any]) -> None:
        html = await database_sync_to_async(self._chat_line)(int(event["id"]))
        if html:
            await self.send(text_data=html)  # type: ignore[attr-defined]

    async def chat_hidden(self, event: dict[str, Any]) -> None:
        await self.send(  # type: ignore[attr-defined]
            text_data=f'<li id="chat-line-{int(event["id"])}" hx-swap-oob="delete"></li>'
        )

    async def rematch_changed(self, event: dict[str, Any]) -> None:
        html = await database_sync_to_async(self._rematch_panel)()
        if html:
            await self.send(text_data=html)  # type: ignore[attr-defined]

    def _chat_line(self, message_id: int) -> str:
        user = self.scope["user"]
        where = chat.seating(self.match_id)
        line = chat.line_for(message_id, where, user, self.invite)
        if line is None:
            return ""
        with translation.override(self.language):
            context = chat_line_context(where, line, user)
            return render_to_string("games/chat.html#pushed-line", context)

    def _rematch_panel(self) -> str:
        user = self.scope["user"]
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None or match.status != Match.Status.FINISHED:
            return ""
        with translation.override(self.language):
            context = rematch_context(match, user, oob=True)
            return render_to_string("games/rematch.html#panel", context)
