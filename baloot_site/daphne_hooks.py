"""What the site's server command changes in daphne: the access log hides invite tokens.

``InviteHidingAccessLog`` is daphne's access log with the value of every
``invite`` parameter hidden (``baloot_site.log_filters``): an invite link's
one request would otherwise write the token into the log.

``install()`` puts it in place; ``baloot_site.serve`` calls it before daphne
starts.
"""

from __future__ import annotations

from typing import Any

from daphne import access, cli

from baloot_site.log_filters import hide_invites


class InviteHidingAccessLog(access.AccessLogGenerator):
    """daphne's access log, with invite tokens hidden in the addresses it writes."""

    def write_entry(self, host: Any, date: Any, request: str, *args: Any, **kwargs: Any) -> None:
        super().write_entry(host, date, hide_invites(request), *args, **kwargs)


def install() -> None:
    """Make daphne build its access log from the class above."""
    cli.AccessLogGenerator = InviteHidingAccessLog
