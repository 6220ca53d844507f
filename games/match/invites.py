"""Invite tokens kept in the visitor's session, never carried in the site's addresses.

A private match's invite link (``/match/<id>/?invite=<token>``, or its match
page's) is taken in once: the page stores the token in the session
(``hold``) and answers with a redirect to the same address without it
(``takes_invite_link``). The token so appears in one request line only,
which the access logs print with it hidden (``baloot_site.log_filters``),
and never in the address bar, a Referer, a login's ``next``, the table's
links and forms or its WebSocket's address. Every later page, form post
and socket finds it in the session (``held``); the access rule
(``games.match.access``) judges it each time, so a link that was turned off
stops working at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

# Where the session keeps the tokens: match id (as text) to token.
SESSION_KEY = "invites"
# The query parameter of an invite link.
PARAMETER = "invite"
# A session keeps the tokens of this many private matches at most, the newest.
MAX_HELD = 20
# What a token can look like (``new_invite_token``); anything else is not kept.
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def held(session: Any, match_id: int) -> str:
    """The invite token the session holds for ``match_id``, or "" (also without a session)."""
    if session is None:
        return ""
    tokens = session.get(SESSION_KEY)
    token = tokens.get(str(match_id)) if isinstance(tokens, dict) else None
    return token if isinstance(token, str) else ""


def hold(session: Any, match_id: int, token: str) -> None:
    """Keep ``token`` in the session as the invite of ``match_id``; a value that cannot
    be a token is left out (the access rule would refuse it anyway)."""
    if not TOKEN.fullmatch(token):
        return
    tokens = session.get(SESSION_KEY)
    kept = (
        {k: v for k, v in tokens.items() if k != str(match_id)} if isinstance(tokens, dict) else {}
    )
    # Dictionaries keep their order: the oldest tokens go first.
    newest = list(kept.items())[-(MAX_HELD - 1) :]
    session[SESSION_KEY] = {**dict(newest), str(match_id): token}


View = Callable[..., HttpResponse]


def takes_invite_link(view: View) -> View:
    """Wrap a page of one match (``pk``) so that an invite link's token goes to the session.

    A GET carrying ``?invite=`` is answered with a redirect to the same
    address without it, whatever the token is worth: the answer tells nothing
    about the match. Put it before ``login_required``, so that a visitor who
    must log in first is sent there with a ``next`` that holds no token.
    """

    @wraps(view)
    def page(request: HttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method in ("GET", "HEAD") and PARAMETER in request.GET:
            hold(request.session, pk, request.GET[PARAMETER])
            rest = request.GET.copy()
            del rest[PARAMETER]
            query = rest.urlencode()
            response = redirect(f"{request.path}?{query}" if query else request.path)
            # The address with the token is not one to keep or to show.
            response["Cache-Control"] = "no-store"
            response["Referrer-Policy"] = "no-referrer"
            return response
        return view(request, pk, *args, **kwargs)

    return page
