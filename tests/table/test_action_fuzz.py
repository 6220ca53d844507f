"""Fuzzing the action endpoint and the table's WebSocket with malformed and illegal input.

Thousands of seeded random requests: random JSON and bytes, wrong types,
wrong seats, wrong phases, stale move numbers, other users, strangers,
anonymous visitors, wrong methods, oversized bodies, missing CSRF tokens,
and one account opening 200 sockets to one table.
Each is built to be refused — one that the rules engine would accept from
the seat to act at the current move number is made stale first, so the
test can demand that nothing changes. Then: no answer is a 5xx, nothing is
logged at error level or with a traceback, and every match is stored
exactly as before.
"""

from __future__ import annotations

import json
import logging
import random
import string
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from baloot_site.asgi import application
from games import rules
from games.match import services
from games.match.action_input import clean_action
from games.match.errors import MalformedAction
from games.match.event_log import load_state
from games.match.models import Match
from tests.support.drivers import Driver, seat_everyone
from tests.support.log_check import stored
from tests.support.sockets import Socket
from tests.table.live import HOST, ORIGIN, close_all, seq_of, session_cookie, socket_for

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 20261202
CARDS = [rank + suit for rank in "789TJQKA" for suit in "SHDC"]
KEYS = [
    "seat", "bid", "trump", "redeal", "double", "lock", "declare", "play", "baloot", "sawa",
    "auto", "at", "", "x", "__proto__", "Seat", "play ",
]  # fmt: skip
VERB_VALUES: dict[str, list[Any]] = {
    "bid": ["pass", "sun", "hokum", "ashkal", "confirm", "SUN", "", "double"],
    "trump": ["S", "H", "D", "C", "X", "spades"],
    "double": ["double", "triple", "four", "gahwa", "pass", "quintuple"],
    "play": [*CARDS, "1S", "TX", "", "AS AS"],
    "declare": [[], [{"project": "sira", "cards": ["7S", "8S", "9S"]}], [{"project": "x"}]],
    "redeal": [True, False],
    "sawa": [True, False],
    "baloot": [True, False],
    "lock": [True, False],
}
# Answers that refuse: never a success (200 to htmx, 302 to the table).
REFUSALS = {400, 403, 404, 405, 409, 413, 422, 429}


class Recorder(logging.Handler):
    """Keeps every record at warning level or above."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def log_records() -> Iterator[list[logging.LogRecord]]:
    """What the site logs meanwhile; the ``django`` logger does not propagate, so both."""
    recorder = Recorder()
    loggers = [logging.getLogger(), logging.getLogger("django")]
    for logger in loggers:
        logger.addHandler(recorder)
    try:
        yield recorder.records
    finally:
        for logger in loggers:
            logger.removeHandler(recorder)


def random_text(rng: random.Random) -> str:
    alphabet = string.printable + "éü☃♠♥\u202e\x00"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 1, 4, 5, 2**63, -(2**70), rng.randrange(-1000, 1000)])
    if kind == 3:
        return rng.choice([0.5, -0.0, 1e308, float(rng.random())])
    if kind == 4:
        return random_text(rng)
    if kind == 5:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rng.choice(KEYS): random_json(rng, depth + 1) for _ in range(rng.randrange(0, 4))}


def random_action(rng: random.Random, state: rules.State) -> Any:
    """Something shaped more or less like an action: random, verb-shaped, or legal."""
    kind = rng.randrange(6)
    if kind == 0:
        return random_json(rng)
    if kind in (1, 2):
        verb = rng.choice(list(VERB_VALUES))
        action: dict[str, Any] = {verb: rng.choice(VERB_VALUES[verb])}
        if rng.random() < 0.3:
            extra = rng.choice(list(VERB_VALUES))
            action[extra] = rng.choice(VERB_VALUES[extra])
        if rng.random() < 0.2:
            action["seat"] = rng.choice([1, 2, 3, 4, 0, 9, True, "1"])
        if rng.random() < 0.1:
            action[rng.choice(["auto", "at"])] = rng.choice([True, "2030-01-01T00:00:00Z"])
        return action
    legal = rules.legal_actions(state) if state.turn is not None else []
    if not legal:
        return random_json(rng)
    action = {k: v for k, v in rng.choice(legal).items() if k != "seat" or rng.random() < 0.5}
    if kind == 5 and rng.random() < 0.5:
        # Another seat's name on a legal action.
        action["seat"] = rng.choice([s for s in (1, 2, 3, 4) if s != state.turn])
    return action


def accepted_by_engine(state: rules.State, action: Any) -> bool:
    """True when the seat to act could have this action recorded at the current move."""
    try:
        fields = clean_action(action)
    except MalformedAction:
        return False
    if fields.get("seat", state.turn) != state.turn:
        return False
    try:
        rules.apply(state, {"seat": state.turn, **{k: v for k, v in fields.items() if k != "seat"}})
    except rules.IllegalAction:
        return False
    return True


class Table:
    """One match the fuzzer aims at, as it stands (it must never move)."""

    def __init__(self, match: Match, players: dict[int, User]) -> None:
        self.match_id = match.pk
        self.state = load_state(Match.objects.get(pk=match.pk))
        self.seq = Match.objects.get(pk=match.pk).seq
        self.turn_user = players[self.state.turn] if self.state.turn else None


@pytest.fixture
def tables(players: dict[int, User]) -> list[Table]:
    """Matches in every situation: bidding, playing mid-trick, waiting, aborted."""
    bidding = services.start_match(players[1], seat_everyone(players))
    driver = Driver(services.start_match(players[1], seat_everyone(players)), seed=5)
    driver.until(lambda s: s.phase is rules.Phase.PLAYING and len(s.deal_actions) % 4 == 2)
    waiting = seat_everyone(players)
    aborted = services.abort_match(services.start_match(players[1], seat_everyone(players)).match)
    return [
        Table(match, players) for match in (bidding.match, driver.outcome.match, waiting, aborted)
    ]


def server_reading(request: tuple[str, Any]) -> tuple[Any, Any] | None:
    """The action and move number the endpoint will read from a request, as the view does.

    None when the request cannot even be read (it is refused as malformed).
    """
    kind, payload = request
    if kind == "form":
        try:
            action = json.loads(payload["action"])
        except ValueError:
            return None
        if isinstance(action, dict) and "play" in action and payload.get("baloot") == "on":
            action["baloot"] = True
        seen = payload.get("expected_seq", "")
        return action, int(seen) if seen.isascii() and seen.isdigit() else seen
    if kind == "json":
        try:
            body = json.loads(payload)
        except ValueError:
            return None
        return (body.get("action"), body.get("expected_seq")) if isinstance(body, dict) else None
    return None


def would_be_recorded(table: Table, request: tuple[str, Any]) -> bool:
    """True when the seat to act sending ``request`` would get its action recorded."""
    reading = server_reading(request)
    if reading is None:
        return False
    action, seq = reading
    return (
        type(seq) is int
        and seq == table.seq
        and table.state.turn is not None
        and accepted_by_engine(table.state, action)
    )


def build_request(rng: random.Random, action: Any, seq: Any, *, garble: bool) -> tuple[str, Any]:
    """A request body for the action endpoint: ("form", fields) or ("json", bytes)."""
    if rng.random() < 0.6:
        text = random_text(rng) if garble and rng.random() < 0.2 else json.dumps(action)
        fields = {"action": text}
        if seq is not None:
            fields["expected_seq"] = str(seq)
        if rng.random() < 0.1:
            fields["baloot"] = "on"
        return "form", fields
    body: Any = {"action": action, "expected_seq": seq}
    if garble and rng.random() < 0.2:
        body = random_json(rng)
    raw = json.dumps(body).encode()
    if garble and rng.random() < 0.1:
        raw = raw[: rng.randrange(len(raw) + 1)] + bytes([rng.randrange(256)])
    return "json", raw


def fuzz_http(
    rng: random.Random,
    tables: list[Table],
    clients: dict[str, Client],
    seated: dict[str, User | None],
    cases: int,
) -> list[str]:
    """Send ``cases`` bad requests to the action endpoint; returns what went wrong."""
    problems = []
    for case in range(cases):
        table = rng.choice(tables)
        who = rng.choice(list(clients))
        client = clients[who]
        user = seated[who]
        match_id = table.match_id if rng.random() > 0.03 else rng.choice([0, 999_999])
        url = reverse("play:act", args=[match_id])
        action = random_action(rng, table.state)
        seq: Any = rng.choice(
            [table.seq] * 4
            + [table.seq - 1, table.seq + 1, 0, -1, 10**12, "1", "", "x", 1.0, True, None]
        )
        htmx: dict[str, Any] = {"HTTP_HX_REQUEST": "true"} if rng.random() < 0.7 else {}
        roll = rng.random()
        oversized = False
        if roll < 0.85:
            request = build_request(rng, action, seq, garble=True)
            if user is not None and user == table.turn_user and would_be_recorded(table, request):
                # A good move: make it stale, as a replayed request would be.
                stale = table.seq + rng.choice([-1, 1])
                request = build_request(rng, action, stale, garble=False)
            kind, payload = request
            if kind == "form":
                response = client.post(url, payload, **htmx)
            else:
                response = client.generic(
                    "POST", url, payload, content_type="application/json", **htmx
                )
        elif roll < 0.90:
            filler = "x" * rng.choice([4097, 20_000, 3 * 1024 * 1024])
            oversized = len(filler) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            request = ("form", {"action": filler, "expected_seq": "1"})
            response = client.post(url, request[1], **htmx)
        elif roll < 0.93:
            # JSON nested deeper than the reader's recursion goes.
            depth = rng.choice([1000, 50_000])
            nested = "[" * depth + "]" * depth
            request = ("json", f'{{"action": {nested}, "expected_seq": 1}}'.encode())
            response = client.generic(
                "POST", url, request[1], content_type="application/json", **htmx
            )
        elif roll < 0.96:
            # A multipart form that carries its CSRF token, so the CSRF check
            # reads the form before the view does.
            # Sent by that client whoever was drawn: the answer is judged as its.
            who = "with-csrf"
            request = ("multipart", {"action": json.dumps(action), "expected_seq": str(seq)})
            csrf_client = clients[who]
            token = csrf_client.cookies["csrftoken"].value
            response = csrf_client.post(url, {**request[1], "csrfmiddlewaretoken": token})
        else:
            request = (rng.choice(["GET", "PUT", "DELETE", "PATCH"]), b"{}")
            response = client.generic(request[0], url, b"{}", content_type="application/json")
        status = response.status_code
        if who.startswith("anonymous"):
            # Whatever the match, the body or the method: the way to log in,
            # or, for a browser's unsafe request without a CSRF token, the
            # CSRF refusal, checked before anything else (a form body too big
            # to read for its token is refused as such, 400). Never a sign of
            # whether the match exists or what the action would have done.
            to_log_in = status == 302 and response.get("Location", "").startswith(
                f"{reverse('accounts:login')}?next="
            )
            refused = (
                who == "anonymous-no-csrf"
                and request[0] != "GET"
                and (
                    (status == 403 and b"CSRF" in response.content) or (status == 400 and oversized)
                )
            )
            if not (to_log_in or refused):
                problems.append(f"case {case} ({who}, {request[0]}): status {status}")
        elif status not in REFUSALS:
            problems.append(
                f"case {case} ({who}, match {match_id}, {request!r}): status {status}: "
                f"{response.content[:300]!r}"
            )
    return problems


@pytest.mark.parametrize(
    "cases",
    [
        pytest.param(500, id="500-requests"),
        # The full run of the size: `make soak`.
        pytest.param(10_000, id="10000-requests", marks=pytest.mark.soak),
    ],
)
def test_bad_actions_at_the_endpoint_change_nothing_and_never_fail(
    cases: int,
    tables: list[Table],
    players: dict[int, User],
    make_user: Any,
    log_records: list[logging.LogRecord],
):
    outsider = make_user("mallory")
    clients: dict[str, Client] = {}
    seated: dict[str, User | None] = {}
    for name, user in [*((f"seat{n}", u) for n, u in players.items()), ("outsider", outsider)]:
        client = Client()
        client.force_login(user)
        clients[name] = client
        seated[name] = user if name != "outsider" else None
    clients["anonymous"] = Client()
    seated["anonymous"] = None
    # A visitor's browser, whose unsafe requests carry no CSRF token.
    clients["anonymous-no-csrf"] = Client(enforce_csrf_checks=True)
    seated["anonymous-no-csrf"] = None
    # Without its CSRF token, a logged-in browser's post is refused (403).
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(players[1])
    clients["no-csrf"] = forged
    seated["no-csrf"] = None
    # Posts multipart forms with their CSRF token (an outsider: always refused).
    with_csrf = Client(enforce_csrf_checks=True)
    with_csrf.force_login(make_user("formposter"))
    with_csrf.get(reverse("home"))
    clients["with-csrf"] = with_csrf
    seated["with-csrf"] = None
    before = [stored(table.match_id) for table in tables]

    problems = fuzz_http(random.Random(SEED + cases), tables, clients, seated, cases)

    assert problems == []
    assert [stored(table.match_id) for table in tables] == before
    # Django logs a body over DATA_UPLOAD_MAX_MEMORY_SIZE (answered 400) as a
    # security event; in front of daphne the ASGI guard refuses it first (413).
    errors = [
        r
        for r in log_records
        if (r.levelno >= logging.ERROR or r.exc_info)
        and r.name != "django.security.RequestDataTooBig"
    ]
    assert errors == [], [r.getMessage() for r in errors[:5]]


def loose_spellings(seq: int) -> list[tuple[str, Any]]:
    """The current move number as something that is not a whole number but reads
    like one: each must be refused as malformed, never taken for ``seq``."""
    json_values: list[Any] = [float(seq), str(seq), [seq], {"seq": seq}, seq + 0.5]
    if seq in (0, 1):
        json_values.append(bool(seq))  # True == 1 in Python: the case a sample rarely draws
    form_values = [f" {seq}", f"{seq} ", f"+{seq}", f"{seq}.0", f"0x{seq:x}", f"{seq}\n"]
    # Arabic-Indic and full-width digits: str.isdigit() says yes, int() reads them.
    form_values += ["".join(chr(0x660 + int(d)) for d in str(seq))]
    form_values += ["".join(chr(0xFF10 + int(d)) for d in str(seq))]
    return [("json", value) for value in json_values] + [("form", value) for value in form_values]


def test_a_move_number_that_only_reads_like_the_current_one_is_refused(
    tables: list[Table], players: dict[int, User]
):
    """The seat to act, a legal action, and the current move number spelled in
    every loose way: the random sample above meets these too seldom to be
    relied on (``expected_seq: true`` at move 1 is about one request in 6,000)."""
    before = [stored(table.match_id) for table in tables]
    tried_bool = False
    problems = []
    for table in tables:
        if table.turn_user is None:
            continue
        client = Client()
        client.force_login(table.turn_user)
        url = reverse("play:act", args=[table.match_id])
        for action in rules.legal_actions(table.state):
            fields = {k: v for k, v in action.items() if k != "seat"}
            for kind, value in loose_spellings(table.seq):
                tried_bool |= type(value) is bool
                if kind == "json":
                    body = json.dumps({"action": fields, "expected_seq": value})
                    response = client.generic(
                        "POST", url, body, content_type="application/json", HTTP_HX_REQUEST="true"
                    )
                else:
                    form = {"action": json.dumps(fields), "expected_seq": value}
                    response = client.post(url, form, HTTP_HX_REQUEST="true")
                if response.status_code != 400:
                    problems.append((table.match_id, fields, kind, value, response.status_code))
    assert problems == []
    assert tried_bool, "no table stood at move 0 or 1, so true/false went untried"
    assert [stored(table.match_id) for table in tables] == before


@pytest.mark.asyncio
async def test_garbage_on_the_table_socket_changes_nothing_and_never_breaks_it(
    tables: list[Table],
    players: dict[int, User],
    make_user: Any,
    settings: Any,
    log_records: list[logging.LogRecord],
):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    rng = random.Random(SEED)
    outsider = await database_sync_to_async(make_user)("mallory")
    running = [t for t in tables if t.turn_user is not None]
    before = [await database_sync_to_async(stored)(t.match_id) for t in tables]
    sockets = []
    for table in running:
        for user in (table.turn_user, players[(table.state.turn or 4) % 4 + 1], outsider):
            socket = await socket_for(table.match_id, user)
            connected, _ = await socket.connect()
            assert connected
            assert seq_of(await socket.receive_from()) == table.seq
            sockets.append((table, socket))
    try:
        for _ in range(2_000):
            table, socket = rng.choice(sockets)
            roll = rng.random()
            if roll < 0.4:
                message = json.dumps(random_json(rng))
            elif roll < 0.7:
                message = json.dumps({"seq": rng.choice([random_json(rng), table.seq - 1, -5])})
            elif roll < 0.8:
                message = json.dumps({"action": random_action(rng, table.state), "seq": table.seq})
            elif roll < 0.9:
                message = random_text(rng) + "x" * rng.choice([0, 300, 5000])
            else:
                await socket.send_to(bytes_data=bytes(rng.randrange(256) for _ in range(20)))
                continue
            # The test communicator cannot send an empty frame; a browser never does.
            await socket.send_to(text_data=message or " ")
        # Every socket still answers, and only ever with the table as it is.
        for table, socket in sockets:
            await socket.send_to(text_data=json.dumps({"seq": -1}))
            while True:
                frame = await socket.receive_from(timeout=10)
                assert seq_of(frame) == table.seq
                if await socket.receive_nothing(timeout=0.2):
                    break
    finally:
        await close_all(socket for _table, socket in sockets)
    assert [await database_sync_to_async(stored)(t.match_id) for t in tables] == before
    errors = [r for r in log_records if r.levelno >= logging.ERROR or r.exc_info]
    assert errors == [], [r.getMessage() for r in errors[:5]]


@pytest.mark.asyncio
async def test_two_hundred_sockets_of_one_user_hit_the_cap_and_break_nothing(
    players: dict[int, User], settings: Any, log_records: list[logging.LogRecord]
):
    """One account opens 200 sockets to one table: TABLE_SOCKETS_PER_USER of them are
    served, every other one is closed at once with 4429, and the table, the other
    players' sockets and the user's own served sockets go on as before."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    outcome = await database_sync_to_async(
        lambda: services.start_match(players[1], seat_everyone(players))
    )()
    match_id, seq = outcome.match.pk, outcome.match.seq
    cookie = await database_sync_to_async(session_cookie)(players[2])
    path = f"/ws/match/{match_id}/"

    def flooder_socket() -> WebsocketCommunicator:
        return Socket(application, path, headers=[HOST, ORIGIN, (b"cookie", cookie)])

    served, refused = [], 0
    other = await socket_for(match_id, players[3])
    try:
        assert (await other.connect(timeout=10))[0]
        assert seq_of(await other.receive_from()) == seq
        for _ in range(200):
            socket = flooder_socket()
            assert (await socket.connect(timeout=10))[0]
            first = await socket.receive_output(timeout=10)
            if first["type"] == "websocket.close":
                assert first["code"] == 4429
                refused += 1
                # As a server does once the close is sent: the consumer ends at
                # once instead of waiting for a disconnect that never comes.
                await socket.disconnect()
            else:
                assert seq_of(first["text"]) == seq
                served.append(socket)
        assert len(served) == settings.TABLE_SOCKETS_PER_USER
        assert refused == 200 - settings.TABLE_SOCKETS_PER_USER
        print(
            f"200 sockets of one user: {len(served)} served, {refused} refused with 4429 "
            f"(TABLE_SOCKETS_PER_USER={settings.TABLE_SOCKETS_PER_USER})"
        )
        # The table still moves, and every served socket hears of it.
        driver = Driver(outcome, seed=SEED)
        await database_sync_to_async(driver.step)()
        moved = await database_sync_to_async(lambda: Match.objects.get(pk=match_id).seq)()
        assert moved > seq
        for socket in [other, *served]:
            assert seq_of(await socket.receive_from(timeout=10)) == moved
        # The refused sockets left no count behind: once the served ones close,
        # the same user is served again.
        await close_all(served)
        served = []
        again = flooder_socket()
        assert (await again.connect(timeout=10))[0]
        assert seq_of(await again.receive_from(timeout=10)) == moved
        served.append(again)
    finally:
        await close_all([other, *served])
    errors = [r for r in log_records if r.levelno >= logging.ERROR or r.exc_info]
    assert errors == [], [r.getMessage() for r in errors[:5]]
