"""Setting up players and tables on a running stack, through the site's own services.

Each helper runs one fresh Django process (``manage.py shell``) against the
stack's database, as an operator's script would, and reads back what it
printed. Nothing here touches the servers' memory.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from stacks.servers import Stack

PASSWORD = "a-long-test-passphrase-42"


@dataclass(frozen=True)
class Table:
    """A started table: its id, the seat to act, and who sits where (None for a bot)."""

    match_id: int
    turn: int | None
    players: dict[int, str | None]


def start_tables(
    stack: Stack,
    count: int,
    people: tuple[int, ...] = (),
    *,
    prefix: str = "p",
    can_log_in: bool = True,
) -> list[Table]:
    """Start ``count`` tables: people in seats ``people``, bots elsewhere.

    Player names are ``{prefix}{table}s{seat}``; they log in with PASSWORD
    when ``can_log_in`` (hashing it is slow, so crowds go without).
    """
    password = PASSWORD if can_log_in else None
    out = stack.shell(
        "import json\n"
        "from django.contrib.auth.models import User\n"
        "from games.match import services\n"
        f"people, count, prefix, password = {people!r}, {count}, {prefix!r}, {password!r}\n"
        "tables = []\n"
        "for t in range(count):\n"
        "    users = {n: User.objects.create_user(f'{prefix}{t}s{n}', password=password)\n"
        "             for n in people}\n"
        "    owner = users.get(1) or User.objects.create_user(f'{prefix}{t}owner')\n"
        "    match = services.create_match(owner, seat=1 if 1 in people else None)\n"
        "    for n in (1, 2, 3, 4):\n"
        "        if n in users and n != 1:\n"
        "            services.take_seat(users[n], match, n)\n"
        "        elif n not in users:\n"
        "            services.add_bot(owner, match, n)\n"
        "    outcome = services.start_match(owner, match)\n"
        "    names = {n: (users[n].username if n in users else None) for n in (1, 2, 3, 4)}\n"
        "    tables.append([match.pk, outcome.state.turn, names])\n"
        "print(json.dumps(tables))\n"
    )
    return [
        Table(match_id, turn, {int(k): v for k, v in names.items()})
        for match_id, turn, names in json.loads(out.strip().splitlines()[-1])
    ]


def create_user(stack: Stack, username: str) -> None:
    """A user with the test password and no seat anywhere."""
    stack.shell(
        "from django.contrib.auth.models import User\n"
        f"User.objects.create_user({username!r}, password={PASSWORD!r})\n"
    )


def abort(stack: Stack, match_ids: list[int]) -> None:
    """Stop matches for good through the admin's service, so workers leave them alone.

    A match that already ended is left as it is.
    """
    stack.shell(
        "from games.match import services\n"
        "from games.match.errors import MatchOver\n"
        f"for pk in {match_ids!r}:\n"
        "    try:\n"
        "        services.abort_match(pk)\n"
        "    except MatchOver:\n"
        "        pass\n"
    )


def events(stack: Stack, match_id: int) -> list[tuple[int, str, int | None, bool, Any]]:
    """A match's log as stored: (seq, kind, actor seat, auto, payload), in order."""
    rows = stack.rows(
        "SELECT seq, kind, actor_seat, auto, payload FROM games_event "
        "WHERE match_id = %s ORDER BY seq",
        match_id,
    )
    return [
        (seq, kind, seat, bool(auto), json.loads(p) if isinstance(p, str) else p)
        for seq, kind, seat, auto, p in rows
    ]


def match_seq(stack: Stack, match_id: int) -> int:
    return int(stack.rows("SELECT seq FROM games_match WHERE id = %s", match_id)[0][0])


def assert_log_intact(stack: Stack, match_ids: list[int]) -> dict[int, int]:
    """Every match's events are numbered 1..seq with no gap; returns each last seq.

    The unique (match, seq) constraint already forbids a number twice; this
    also proves none was skipped and the projection agrees with the log.
    """
    last = {}
    for match_id in match_ids:
        numbers = [row[0] for row in events(stack, match_id)]
        projected = match_seq(stack, match_id)
        assert numbers == list(range(1, len(numbers) + 1)), f"match {match_id}: gaps in {numbers}"
        assert projected == len(numbers), f"match {match_id}: seq {projected} but {len(numbers)}"
        last[match_id] = projected
    return last


def verify(stack: Stack) -> str:
    """``manage.py verify_matches``: every match replays from its first event."""
    return stack.manage("verify_matches")
