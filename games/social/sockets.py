"""Chat lines and rematch offers on the table's own WebSocket.

``TableConsumer`` mixes this in: besides its match group, each table socket
joins the table's social group (``games.social.broadcast.social_group``,
joined with the others in ``games.table.consumers``), whose messages carry only
a chat line's number or "the rematch changed". Each socket then sends what
its own user may see, as an htmx out-of-band swap: their room's line unless
they muted its author, read and drawn once for all of this process's sockets
(``games.social.lines``), and the rematch panel, read for each socket, since
it changes only when a player offers, accepts or the rematch starts. Nothing
here touches the match's events or its cards, and the table's own pushes pay
nothing for it: when a push shows the match is over, the page's script asks
for the rematch panel once (``static/js/social.js``).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import translation

from games.match.models import Match
from games.social.context import rematch_context
from games.social.lines import CHAT_LINES


class TableSocialMixin:
    """Chat and rematch pushes for one user's table socket (needs match_id, invite, language)."""

    match_id: int
    invite: str
    language: str
    scope: dict[str, Any]

    async def chat_message(self, event: dict[str, Any]) -> None:
        message_id = int(event["id"])
        user = self.scope["user"]
        # Drawn in the event loop when this process has read the line already.
        html = CHAT_LINES.known(message_id, self.match_id, user, self.invite, self.language)
        if html is None:
            html = await database_sync_to_async(CHAT_LINES.line)(
                message_id, self.match_id, user, self.invite, self.language, self._table_viewers()
            )
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

    def _table_viewers(self) -> frozenset[int]:
        """The people whose sockets this process holds at the table (the consumer knows)."""
        return frozenset()

    def _rematch_panel(self) -> str:
        user = self.scope["user"]
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None or match.status != Match.Status.FINISHED:
            return ""
        with translation.override(self.language):
            context = rematch_context(match, user, oob=True)
            return render_to_string("games/rematch.html#panel", context)
