"""Everything that changes a match: the only code that writes events.

Each function checks, then does, then notifies: it refuses bad requests with
a ``ServiceError`` before changing anything, makes its changes in one
transaction with the match row locked (so racing requests queue up instead of
interleaving), and announces new events only once they are committed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games import rules
from games.bots import choose_action
from games.match import access, dealing, projections, rows, steps, versions
from games.match.action_input import SERVER_FIELDS, clean_action
from games.match.broadcast import announce_on_commit
from games.match.deadlines import MISSED_TURNS_BEFORE_AWAY, deadline_for
from games.match.errors import (
    AlreadySeated,
    DuplicateAction,
    IllegalMove,
    InvalidDocument,
    InvalidSeat,
    InvalidSetting,
    InviteRequired,
    MalformedAction,
    MatchNotFound,
    MatchNotRunning,
    MatchNotWaiting,
    MatchOver,
    NotABot,
    NotAllowed,
    NotTheHost,
    NotYourSeat,
    NotYourTurn,
    SeatEmpty,
    SeatTaken,
    ServiceError,
    StaleSequence,
    TableNotFull,
    WrongPhase,
)
from games.match.event_log import LogError, initial_state, load_state
from games.match.finished_deals import OVER as DEAL_OVER
from games.match.models import (
    SEAT_NUMBERS,
    BotLevel,
    DealSnapshot,
    Event,
    ImportJob,
    Match,
    Seat,
    new_invite_token,
)
from games.match.rule_messages import lazy_rule_message

__all__ = [
    "Outcome",
    "abort_match",
    "add_bot",
    "come_back",
    "create_match",
    "deal_next",
    "leave_seat",
    "load_state",
    "open_full_table",
    "play_due_turn",
    "play_with_bots",
    "put_off_due_turn",
    "queue_import",
    "reissue_invite",
    "remove_bot",
    "remove_player",
    "start_match",
    "store_import_deals",
    "submit",
    "submit_as_seat",
    "take_seat",
]

MatchRef = Match | int

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """What a service call that appended events left: the match's version as committed
    with the change (``games.match.versions``), and the events the call appended, in
    order (for the step announced to the other processes, ``games.match.steps``).
    """

    version: versions.MatchVersion
    events: tuple[steps.Appended, ...] = ()

    @property
    def match(self) -> Match:
        return self.version.match

    @property
    def state(self) -> rules.State:
        return self.version.state

    @property
    def seats(self) -> dict[int, Seat]:
        return self.version.seats

    @property
    def seq(self) -> int:
        """The number of the match's last event."""
        return self.version.seq


@dataclass(frozen=True)
class DueTurn:
    """What ``play_due_turn`` recorded: a next deal, or one seat's action.

    ``seat`` is None for a deal. For an action, ``verb`` names its kind
    (never its card), ``auto`` says the timer forced it, and ``missed_turns``
    and ``away`` are the seat's counts after it.
    """

    outcome: Outcome
    seat: int | None = None
    verb: str = ""
    auto: bool = False
    is_bot: bool = False
    missed_turns: int = 0
    away: bool = False


# --- Tables and seats ---------------------------------------------------------


def create_match(
    creator: Any,
    *,
    mode: str = Match.Mode.CLASSIC,
    play_timer: int = 15,
    is_private: bool = False,
    seat: int | None = 1,
    rated: bool = False,
) -> Match:
    """A new waiting table with four empty seats, the creator sitting at ``seat``.

    A ``rated`` table (public only: a private one never is) has its seats
    drawn when it starts, so that nobody picks their partner; any other
    table of the lobby is unrated. Raises NotAllowed for an anonymous user,
    InvalidSetting for an unknown mode or timer, InvalidSeat for a seat
    outside 1-4.
    """
    _require_user(creator)
    if mode not in Match.Mode.values:
        raise InvalidSetting(_("Unknown game mode: choose Classic or Quick."))
    timers = [seconds for seconds, _label in Match.PLAY_TIMER_CHOICES]
    if play_timer not in timers:
        raise InvalidSetting(_("The play timer must be 10, 15 or 30 seconds."))
    if seat is not None:
        _check_seat_number(seat)
    start = rules.new_match(mode).score
    with transaction.atomic():
        match = Match.objects.create(
            mode=mode,
            play_timer=play_timer,
            is_private=is_private,
            seats_assigned=rated and not is_private,
            creator=creator,
            score_a=start["A"],
            score_b=start["B"],
        )
        Seat.objects.bulk_create(
            Seat(match=match, number=n, user=creator if n == seat else None) for n in SEAT_NUMBERS
        )
    return match


def take_seat(user: Any, match: MatchRef, number: int, *, invite_token: str = "") -> Seat:
    """Sit ``user`` at seat ``number`` of a waiting table.

    Raises NotAllowed, InvalidSeat, MatchNotFound, MatchNotWaiting,
    InviteRequired (a private table without its token), AlreadySeated,
    SeatTaken.
    """
    _require_user(user)
    _check_seat_number(number)
    with transaction.atomic():
        locked = _lock(match)
        _require_waiting(locked)
        if not access.may_join(locked, user, invite_token):
            raise InviteRequired()
        seats = _seats(locked)
        mine = access.seat_of(seats.values(), user)
        if mine is not None:
            raise AlreadySeated(number=mine.number)
        seat = seats[number]
        if not seat.is_empty:
            raise SeatTaken(number=number)
        seat.user = user
        seat.save(update_fields=["user"])
        _announce_seats(locked)
    return seat


def leave_seat(user: Any, match: MatchRef) -> Seat:
    """Leave the table: a waiting seat becomes free, a playing one is played by a bot.

    Raises NotAllowed, MatchNotFound, NotYourSeat (not seated here),
    MatchOver.
    """
    _require_user(user)
    with transaction.atomic():
        locked = _lock(match)
        seat = _own_seat(locked, user)
        if locked.status == Match.Status.WAITING:
            seat.user = None
            seat.save(update_fields=["user"])
        elif locked.status == Match.Status.PLAYING:
            seat.away = True
            seat.save(update_fields=["away"])
            _restart_clock_of(locked, seat.number)
        else:
            raise MatchOver()
        _announce_seats(locked)
    return seat


def come_back(user: Any, match: MatchRef) -> Seat:
    """Take one's seat back from the bot that played it while away.

    The clock is not touched: coming back never buys time on the current
    turn, and the missed turns in a row still count (only acting resets
    them), so posting "I'm back" over and over cannot freeze a match.
    Raises NotAllowed, MatchNotFound, NotYourSeat, MatchNotRunning.
    """
    _require_user(user)
    with transaction.atomic():
        locked = _lock(match)
        seat = _own_seat(locked, user)
        _require_running(locked)
        if seat.away:
            seat.away = False
            seat.save(update_fields=["away"])
        _announce_seats(locked)
    return seat


def add_bot(user: Any, match: MatchRef, number: int, level: str = BotLevel.NORMAL) -> Seat:
    """Put a bot of ``level`` (easy, normal or strong) in an empty seat of a waiting table.

    Raises NotAllowed (anonymous, or neither creator nor seated), InvalidSeat,
    InvalidSetting (an unknown level), MatchNotFound, MatchNotWaiting, SeatTaken.
    """
    _require_user(user)
    _check_seat_number(number)
    _check_bot_level(level)
    with transaction.atomic():
        locked = _lock(match)
        _require_waiting(locked)
        seats = _seats(locked)
        _require_runner(locked, seats, user)
        seat = seats[number]
        if not seat.is_empty:
            raise SeatTaken(number=number)
        seat.is_bot = True
        seat.bot_level = level
        seat.save(update_fields=["is_bot", "bot_level"])
        _announce_seats(locked)
    return seat


def remove_player(user: Any, match: MatchRef, number: int) -> Seat:
    """Free seat ``number`` of a waiting table from the person in it: the host's call.

    For a stranger who sat down and will not leave or start. Raises
    NotAllowed, NotTheHost, InvalidSeat, MatchNotFound, MatchNotWaiting,
    SeatEmpty (nobody, or a bot, or the host themself there).
    """
    _require_user(user)
    _check_seat_number(number)
    with transaction.atomic():
        locked = _lock(match)
        _require_waiting(locked)
        seats = _seats(locked)
        if not access.is_host(locked, user):
            if access.is_member(locked, seats.values(), user):
                raise NotTheHost()
            raise NotAllowed()
        seat = seats[number]
        if seat.user_id is None or seat.user_id == user.pk:
            raise SeatEmpty(number=number)
        seat.user = None
        seat.save(update_fields=["user"])
        # The other pages at the table, the removed player's among them, redraw.
        _announce_seats(locked)
    return seat


def reissue_invite(user: Any, match: MatchRef, *, on: bool = True) -> Match:
    """The creator's new invite link for their match (the old one stops working at once),
    or, with ``on=False``, no invite link at all until they issue a new one.

    A link works for INVITE_MAX_AGE_SECONDS from its issue. Raises NotAllowed,
    NotTheHost (someone else who may see the match), MatchNotFound (anyone
    else: a private match looks missing).
    """
    _require_user(user)
    with transaction.atomic():
        locked = _lock(match)
        if not access.is_host(locked, user):
            if access.may_see(locked, user, _seats(locked).values()):
                raise NotTheHost()
            raise MatchNotFound()
        locked.invite_token = new_invite_token()
        locked.invite_issued_at = timezone.now() if on else None
        locked.save(update_fields=["invite_token", "invite_issued_at"])
        _announce_seats(locked)
    return locked


def remove_bot(user: Any, match: MatchRef, number: int) -> Seat:
    """Take the bot out of a seat of a waiting table.

    Raises NotAllowed, InvalidSeat, MatchNotFound, MatchNotWaiting, NotABot.
    """
    _require_user(user)
    _check_seat_number(number)
    with transaction.atomic():
        locked = _lock(match)
        _require_waiting(locked)
        seats = _seats(locked)
        _require_runner(locked, seats, user)
        seat = seats[number]
        if not seat.is_bot:
            raise NotABot(number=number)
        seat.is_bot = False
        seat.save(update_fields=["is_bot"])
        _announce_seats(locked)
    return seat


# --- Playing ------------------------------------------------------------------


def start_match(user: Any, match: MatchRef) -> Outcome:
    """Start a full table: draw the seats of a rated table, the first dealer, and deal.

    Raises NotAllowed, MatchNotFound, MatchNotWaiting, TableNotFull.
    """
    return _start(user, match, draw_seats=True)


def _start(user: Any, match: MatchRef, *, draw_seats: bool) -> Outcome:
    """Start a full table; with ``draw_seats``, the people of a table whose seats the
    site assigns (``seats_assigned``) are shuffled across its seats first."""
    _require_user(user)
    with transaction.atomic():
        locked = _lock(match)
        _require_waiting(locked)
        seats = _seats(locked)
        _require_runner(locked, seats, user)
        if any(seat.is_empty for seat in seats.values()):
            raise TableNotFull()
        if draw_seats and locked.seats_assigned:
            _draw_seats(locked, seats)
        locked.first_dealer = dealing.first_dealer()
        locked.status = Match.Status.PLAYING
        locked.started_at = timezone.now()
        locked.save(update_fields=["first_dealer", "status", "started_at"])
        # The rating policy decides, once, whether the match is rated.
        projections.match_started(locked, seats)
        state = _deal(locked, initial_state(locked))
        _project(locked, state, seats)
        outcome = _announce(locked, state, seats)
    return outcome


def _draw_seats(match: Match, seats: dict[int, Seat]) -> None:
    """Seat the people of ``match`` at random: who partners whom is the site's draw.

    Only people move (a bot stays where it was put). Every moved seat is
    emptied first, so the one-seat-per-player constraint never sees a
    player twice.
    """
    people = [seat for seat in seats.values() if seat.user_id is not None]
    drawn = dealing.draw_seats([seat.user for seat in people])
    Seat.objects.filter(pk__in=[seat.pk for seat in people]).update(user=None)
    for seat, person in zip(people, drawn, strict=True):
        seat.user = person
        seat.save(update_fields=["user"])


def play_with_bots(
    user: Any,
    *,
    mode: str = Match.Mode.CLASSIC,
    play_timer: int = 15,
    level: str = BotLevel.NORMAL,
) -> Outcome:
    """A new table with ``user`` in seat 1 and bots of ``level`` in the others, started at once.

    One transaction, so a failure leaves no half-built table behind. Raises
    NotAllowed, InvalidSetting (also for an unknown level).
    """
    _check_bot_level(level)
    with transaction.atomic():
        match = create_match(user, mode=mode, play_timer=play_timer, seat=1)
        for number in (2, 3, 4):
            add_bot(user, match, number, level)
        return start_match(user, match)


def open_full_table(
    people: Mapping[int, Any],
    *,
    mode: str,
    play_timer: int,
    unrated: bool = False,
    bot_levels: Mapping[int, str] | None = None,
    is_private: bool = False,
    creator: Any = None,
    seats_assigned: bool = True,
) -> Outcome:
    """A table with ``people[n]`` in seat n and bots in the other seats, started at once.

    For tables nobody opens by hand: a quick match, a rematch. Its creator is
    ``creator`` when that person is seated, else the person in the lowest
    seat; ``bot_levels[n]`` is the level of the bot in seat n (normal when
    not given). A private table gets an invite link of its own, issued now.
    ``seats_assigned`` says the caller, not the players, chose the seats (a
    quick match; a rematch keeps its match's word). Raises NotAllowed (no
    person, or one not logged in), InvalidSeat, InvalidSetting.
    """
    if not people:
        raise NotAllowed()
    for number, person in people.items():
        _check_seat_number(number)
        _require_user(person)
    levels = dict(bot_levels or {})
    for level in levels.values():
        _check_bot_level(level)
    seated = {person.pk for person in people.values()}
    if creator is None or creator.pk not in seated:
        creator = people[min(people)]
    with transaction.atomic():
        match = create_match(
            creator, mode=mode, play_timer=play_timer, is_private=is_private, seat=None
        )
        match.unrated = unrated
        match.seats_assigned = seats_assigned and not is_private
        match.save(update_fields=["unrated", "seats_assigned"])
        for seat in Seat.objects.filter(match=match):
            seat.user = people.get(seat.number)
            seat.is_bot = seat.user is None
            seat.bot_level = levels.get(seat.number, BotLevel.NORMAL)
            seat.save(update_fields=["user", "is_bot", "bot_level"])
        # The people sit where the caller put them: nothing is drawn again.
        return _start(creator, match, draw_seats=False)


def submit(user: Any, match: MatchRef, action: object, expected_seq: object) -> Outcome:
    """Record ``user``'s action in ``match``, which they saw at event ``expected_seq``.

    ``action`` is a notation action; its ``seat`` may be left out. Raises
    NotAllowed, MalformedAction, MatchNotFound, MatchNotRunning, NotYourSeat,
    StaleSequence, DuplicateAction, WrongPhase, NotYourTurn, IllegalMove.
    """
    _require_user(user)
    fields = clean_action(action)
    seen = _check_expected_seq(expected_seq)
    with transaction.atomic():
        locked = _lock(match)
        _require_running(locked)
        # All four seats in one query: the acting one, and the others for
        # the outcome, which the answer and the pushes are drawn from.
        seats = _seats(locked)
        seat = access.seat_of(seats.values(), user)
        if seat is None:
            raise NotYourSeat(_("You do not have a seat at this table."))
        if fields.get("seat", seat.number) != seat.number:
            raise NotYourSeat()
        if seat.away or seat.missed_turns:
            # Acting for oneself is coming back to the table; done first so
            # that the seat's next deadline is a person's, not a bot's.
            seat.away = False
            seat.missed_turns = 0
            seat.save(update_fields=["away", "missed_turns"])
        return _record(locked, _payload(seat.number, fields, auto=False), seen, seats)


def submit_as_seat(
    match: MatchRef,
    seat_number: int,
    action: Mapping[str, Any],
    expected_seq: int,
    *,
    auto: bool = False,
    seats: dict[int, Seat] | None = None,
) -> Outcome:
    """Record an action for a seat on the server's own authority (bots and timers).

    ``auto`` (or ``"auto": true`` in the action) marks a timer-forced action,
    which the engine checks is the forced choice. ``seats``, the match's
    seats read under its lock, if the caller has them, come back in the
    outcome. Raises the errors of ``submit`` except NotAllowed, and
    InvalidSeat.
    """
    _check_seat_number(seat_number)
    auto = auto or action.get("auto") is True
    fields = clean_action({k: v for k, v in action.items() if k not in SERVER_FIELDS})
    seen = _check_expected_seq(expected_seq)
    if fields.get("seat", seat_number) != seat_number:
        raise NotYourSeat()
    payload = _payload(seat_number, fields, auto=auto)
    with transaction.atomic():
        locked = _lock(match)
        _require_running(locked)
        return _record(locked, payload, seen, seats if seats is not None else _seats(locked))


def play_due_turn(
    match_id: int, *, seen_seq: int | None = None, now: datetime | None = None
) -> DueTurn | None:
    """Play the turn that fell due in a running match; None if nothing is due.

    Locks the match, loads its state once (not at all when this process
    committed the match's current state itself, ``versions.STORE``) and acts:
    the next deal once a finished deal's result has been shown, the bot's
    choice for a bot or an away seat, the engine's forced action (rules D17, recorded ``auto``) for
    a person who ran out of time. A person's forced action is a missed turn;
    ``MISSED_TURNS_BEFORE_AWAY`` in a row and the bot plays the seat until
    they come back. ``seen_seq`` (the event number the caller saw the match
    at) makes a match that moved since then not due. A turn another worker
    recorded first is not played again, and a match another transaction
    holds is passed over rather than waited for (``rows.lock_with_seats``).
    Raises LogError for a log that does not rebuild, ServiceError if the
    action is refused for any reason but a lost race, DatabaseError when the
    database fails.
    """
    now = now or timezone.now()
    try:
        with transaction.atomic():
            # The match and every seat in one statement: the seat to act, and
            # the others, which the outcome carries to the pushes.
            found = rows.lock_with_seats(match_id)
            if found is None:
                return None
            locked, seats = found
            if (
                locked.status != Match.Status.PLAYING
                or (seen_seq is not None and locked.seq != seen_seq)
                or (locked.deadline is not None and locked.deadline > now)
            ):
                return None
            # The state this process committed last, when the match has not
            # moved since (a worker's run of turns); else read from the log.
            state = versions.STORE.recall(locked)
            if state is None:
                state = load_state(locked)
            if state.phase is rules.Phase.ROUND_OVER:
                with rows.combined_writes(locked):
                    state = _deal(locked, state)
                    _project(locked, state, seats)
                    outcome = _announce(locked, state, seats)
                return DueTurn(outcome)
            if state.turn is None:
                return None
            seat = seats[state.turn]
            # Read before _due_action, which may hand the seat to the bot now.
            stand_in = seat.away and not seat.is_bot
            action, auto = _due_action(seat, state)
            fields = clean_action({k: v for k, v in action.items() if k not in SERVER_FIELDS})
            if fields.get("seat", seat.number) != seat.number:
                raise NotYourSeat()
            payload = _payload(seat.number, fields, auto=auto)
            outcome = _record(locked, payload, locked.seq, seats, state, stand_in=stand_in)
    except (StaleSequence, DuplicateAction):
        # Another worker recorded this turn first: nothing left to do.
        return None
    return DueTurn(
        outcome,
        seat=seat.number,
        verb=next(k for k in action if k not in ("seat", *SERVER_FIELDS)),
        auto=auto,
        is_bot=seat.is_bot,
        missed_turns=seat.missed_turns,
        away=seat.away,
    )


def put_off_due_turn(match_id: int, seen_seq: int, until: datetime) -> None:
    """Make a match whose due turn could not be played due again at ``until``.

    Only while the match is still at event ``seen_seq``: one that moved on
    has a fresh deadline already.
    """
    Match.objects.filter(pk=match_id, seq=seen_seq).update(deadline=until)


def _last_deal_over(match: Match) -> bool | None:
    """Whether ``match``'s last deal has ended; None when its log does not replay."""
    if match.deal_number == 0:
        return False
    try:
        return load_state(match).phase in DEAL_OVER
    except LogError:
        # Staff may stop a match precisely because its log is broken.
        logger.exception("match %s: the log does not replay", match.pk)
        return None


def abort_match(match: MatchRef) -> Match:
    """Stop a waiting or running match for good (staff only, through the admin).

    Raises MatchNotFound, MatchOver.
    """
    with transaction.atomic():
        locked = _lock(match)
        if locked.is_over:
            raise MatchOver()
        # A deal that had ended is analysed like a finished match's (games.worker.analysis).
        last_deal_over = _last_deal_over(locked)
        _append(locked, Event.Kind.ABORT, {"abort": True})
        locked.status = Match.Status.ABORTED
        locked.finished_at = timezone.now()
        locked.deadline = None
        locked.last_deal_over = last_deal_over
        locked.save(update_fields=["seq", "status", "finished_at", "deadline", "last_deal_over"])
        announce_on_commit(locked.pk, locked.seq)
    return locked


# --- Imported matches ---------------------------------------------------------


def queue_import(
    user: Any, document: rules.Document, text: str, *, language: str = ""
) -> ImportJob:
    """Judge an uploaded ``baloot/1`` document and queue it for the worker to store.

    The rules engine replays the whole document here (a bounded document:
    the upload form caps its size and deals, and the engine alone takes a
    few milliseconds a deal); only a document whose every deal is legal and
    finished is queued. Storing it is the worker's (``store_import_deals``),
    a deal per transaction. ``text`` is the document as uploaded; a failure
    while storing is worded in ``language``. Raises NotAllowed,
    InvalidDocument (nothing is queued).
    """
    _require_user(user)
    if not document.rounds:
        raise InvalidDocument(_("The document holds no deal to replay."))
    try:
        rules.replay_document(document)
    except rules.NotationError as error:
        raise _document_refusal(error) from None
    return ImportJob.objects.create(
        user=user, document=text, language=language, deals_total=len(document.rounds)
    )


# A worker holds an import this long per deal it stores; one that died lets
# another take the job over from its last stored deal once the lease ends.
IMPORT_LEASE = timedelta(seconds=60)


def store_import_deals(limit: int, now: datetime | None = None) -> bool:
    """Store up to ``limit`` deals of the oldest queued import, each in a short transaction.

    The imported match is private and in the "importing" status, seen by
    nobody, until its last deal is stored; then it becomes a finished,
    imported match, its uploader and anyone with its invite link may see it,
    and it never counts in statistics. A job that cannot be stored is
    marked failed, with the reason, and what was stored of it is deleted.
    Returns False when there was no import to work on. Raises DatabaseError
    (the job is taken up again once its lease ends).
    """
    job = _claim_import(now or timezone.now())
    if job is None:
        return False
    try:
        _store_import(job, limit)
    except DatabaseError:
        raise
    except InvalidDocument as error:
        _fail_import(job, error)
    except Exception:
        logger.exception("import %s: could not be stored", job.pk)
        _fail_import(job, ServiceError(_("The import failed on the server; nothing was kept.")))
    return True


def _claim_import(now: datetime) -> ImportJob | None:
    """The oldest import no worker holds, now held by this one; None when there is none."""
    free = Q(status=ImportJob.Status.QUEUED) | Q(
        Q(lease_until__isnull=True) | Q(lease_until__lt=now), status=ImportJob.Status.RUNNING
    )
    candidates = ImportJob.objects.filter(free).order_by("created_at", "pk")
    for pk in candidates.values_list("pk", flat=True)[:3]:
        # Taken only if still free: of two workers, one gets it.
        if ImportJob.objects.filter(free, pk=pk).update(
            status=ImportJob.Status.RUNNING, lease_until=now + IMPORT_LEASE
        ):
            return ImportJob.objects.get(pk=pk)
    return None


@dataclass
class _Progress:
    """What this worker process knows of the import it works on: saves reading it again."""

    job_id: int
    document: rules.Document
    stored: int = 0
    state: rules.State | None = None


_progress: _Progress | None = None


def _progress_of(job: ImportJob) -> _Progress:
    """The job's document, read once per worker process while it works on the job, and
    the state after its stored deals when this process stored them."""
    global _progress
    if _progress is None or _progress.job_id != job.pk:
        try:
            document = rules.read_document(job.document)
        except rules.MalformedDocument as error:
            raise InvalidDocument(
                _("This is not a valid baloot/1 document: %(problem)s"),
                problem=lazy_rule_message(error),
            ) from None
        _progress = _Progress(job.pk, document)
    return _progress


def _forget_progress(job: ImportJob) -> None:
    global _progress
    if _progress is not None and _progress.job_id == job.pk:
        _progress = None


def _store_import(job: ImportJob, limit: int) -> None:
    """Store the job's next ``limit`` deals, and finish the match after the last one."""
    progress = _progress_of(job)
    document = progress.document
    if job.match_id is None:
        now = timezone.now()
        start = rules.new_match(document.mode).score
        header: dict[str, Any] = {}
        if document.players is not None:
            header["players"] = document.players
        if document.extra:
            header["extra"] = document.extra
        with transaction.atomic():
            match = Match.objects.create(
                mode=document.mode,
                status=Match.Status.IMPORTING,
                is_private=True,
                creator_id=job.user_id,
                imported=True,
                notation_header=header,
                first_dealer=document.rounds[0].dealer,
                started_at=now,
                score_a=start["A"],
                score_b=start["B"],
            )
            Seat.objects.bulk_create(Seat(match=match, number=n) for n in SEAT_NUMBERS)
            ImportJob.objects.filter(pk=job.pk).update(match=match)
        job.match = match
        state = initial_state(match)
    else:
        match = Match.objects.get(pk=job.match_id)
        if progress.state is not None and progress.stored == job.deals_stored:
            state = progress.state
        else:
            state = load_state(match) if job.deals_stored else initial_state(match)
    rounds = document.rounds
    first = job.deals_stored
    for index in range(first, min(first + limit, len(rounds))):
        with transaction.atomic():
            # Only the job's holder stores: a worker that took over a lapsed
            # lease has moved the count on, and this one stops.
            if not ImportJob.objects.filter(pk=job.pk, deals_stored=index).update(
                deals_stored=index + 1, lease_until=timezone.now() + IMPORT_LEASE
            ):
                _forget_progress(job)
                return
            state = _store_deal(match, state, index + 1, rounds[index])
            Match.objects.filter(pk=match.pk).update(seq=match.seq)
        job.deals_stored = progress.stored = index + 1
        progress.state = state
    if job.deals_stored < len(rounds):
        # Free for the next pass, of this worker or another.
        ImportJob.objects.filter(pk=job.pk, deals_stored=job.deals_stored).update(lease_until=None)
        return
    with transaction.atomic():
        if not ImportJob.objects.filter(
            pk=job.pk, match=match, status=ImportJob.Status.RUNNING
        ).update(
            status=ImportJob.Status.DONE,
            document="",
            lease_until=None,
            finished_at=timezone.now(),
        ):
            return
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "finished_at"])
        _project(match, state)
    _forget_progress(job)


def _fail_import(job: ImportJob, error: ServiceError) -> None:
    """Mark the job failed with ``error`` in its uploader's language; drop what was stored."""
    with translation.override(job.language or settings.LANGUAGE_CODE):
        message = str(error)
    with transaction.atomic():
        if job.match_id is not None:
            Match.objects.filter(pk=job.match_id, status=Match.Status.IMPORTING).delete()
        ImportJob.objects.filter(pk=job.pk).update(
            status=ImportJob.Status.FAILED,
            error=message,
            document="",
            match=None,
            lease_until=None,
            finished_at=timezone.now(),
        )
    _forget_progress(job)


def _store_deal(
    match: Match, state: rules.State, round_number: int, record: rules.RoundRecord
) -> rules.State:
    """Append one deal of a document and its actions, with its snapshot; the state after it.

    An imported deal keeps its document's own round keys (a seed, a
    commitment...) beside its dealer and deck. Raises InvalidDocument.
    """
    events: list[Event] = []

    def add(kind: str, payload: dict[str, Any], seat: int | None = None) -> None:
        match.seq += 1
        auto = payload.get("auto") is True
        events.append(
            Event(
                match=match, seq=match.seq, kind=kind, payload=payload, actor_seat=seat, auto=auto
            )
        )

    deal = {"dealer": record.dealer, "deck": record.deck, **record.extra}
    add(Event.Kind.DEAL, {"deal": deal})
    if record.dealer != state.next_dealer:
        where = rules.NotationError(
            round_number,
            0,
            "The dealer of this round must be seat %(seat)s",
            seat=state.next_dealer,
        )
        raise _document_refusal(where)
    state = rules.start_deal(state, record.deck)
    snapshot = DealSnapshot(match=match, seq=match.seq, state=rules.snapshot(state))
    for number, action in enumerate(record.actions, 1):
        try:
            # The full check, shape included, as for a move at the table.
            state = rules.apply(state, action)
        except rules.IllegalAction as error:
            where = rules.NotationError(round_number, number, error.template, **error.params)
            raise _document_refusal(where) from None
        add(Event.Kind.ACTION, dict(action), action["seat"])
    Event.objects.bulk_create(events)
    snapshot.save()
    return state


def _document_refusal(error: rules.NotationError) -> InvalidDocument:
    """The service error naming the round and action of a document the rules refuse."""
    # The engine's wording, translated when the message is shown.
    problem = lazy_rule_message(error)
    if error.action == 0:
        return InvalidDocument(
            _("Round %(round)s: %(problem)s"), round=error.round, problem=problem
        )
    return InvalidDocument(
        _("Round %(round)s, action %(action)s: %(problem)s"),
        round=error.round,
        action=error.action,
        problem=problem,
    )


# --- Inside a transaction -----------------------------------------------------


def _record(
    match: Match,
    payload: dict[str, Any],
    expected_seq: int,
    seats: dict[int, Seat],
    state: rules.State | None = None,
    *,
    stand_in: bool = False,
) -> Outcome:
    """Validate ``payload`` against the match's state and append it, dealing on if needed.

    ``state`` is the state of the locked match when the caller loaded it
    already; it is loaded here otherwise. ``seats``, the match's seats read
    under its lock, come back in the outcome. ``stand_in`` marks the
    bot's choice for an away person.

    Raises StaleSequence or DuplicateAction for an out-of-date ``expected_seq``
    (also when a racing twin got its event in first), and the engine's
    refusal as WrongPhase, NotYourTurn, MalformedAction or IllegalMove.
    """
    if expected_seq != match.seq:
        raise _conflict(match.pk, expected_seq, payload, current_seq=match.seq)
    try:
        state = rules.apply(state if state is not None else load_state(match), payload)
    except rules.IllegalAction as error:
        raise _refusal(error) from None
    # Every caller holds the match row's lock and has checked the event
    # number under it, so no racing twin can insert this event where the
    # database has row locks (PostgreSQL): no savepoint is needed there. If
    # one did, the transaction is spoilt and only the number's staleness can
    # be told. Elsewhere a savepoint makes losing a race a clean refusal.
    locked_row = connection.features.has_select_for_update
    try:
        # PostgreSQL writes the events, the match and the outbox row together
        # at the announcement (rows.combined_writes).
        with rows.combined_writes(match):
            try:
                with transaction.atomic(savepoint=not locked_row):
                    _append(
                        match,
                        Event.Kind.ACTION,
                        payload,
                        actor_seat=payload["seat"],
                        auto=bool(payload.get("auto")),
                        stand_in=stand_in,
                    )
            except IntegrityError:
                if locked_row:
                    raise StaleSequence(expected=expected_seq, current=expected_seq + 1) from None
                raise _conflict(match.pk, expected_seq, payload) from None
            over = state.phase is rules.Phase.MATCH_OVER
            if over or state.phase is rules.Phase.ROUND_OVER:
                # Statistics and ratings are committed with the deal's last action;
                # their hooks find the events in the database.
                rows.write_held(match)
                projections.deal_ended(match, state, seats)
            if state.phase is rules.Phase.ROUND_OVER and settings.ROUND_PAUSE_SECONDS <= 0:
                state = _deal(match, state)
            _project(match, state, seats)
            if over:
                rows.write_held(match)
                projections.match_ended(match, state, seats)
            outcome = _announce(match, state, seats)
    except rows.EventRefused:
        raise StaleSequence(expected=expected_seq, current=expected_seq + 1) from None
    return outcome


def deal_next(match: MatchRef, expected_seq: int) -> Outcome:
    """Deal the next hand of a running match whose last deal is over (the worker's job
    once the result has been on show for ``ROUND_PAUSE_SECONDS``).

    Raises MatchNotFound, MatchNotRunning, StaleSequence when the match has
    moved past ``expected_seq`` (another worker dealt first), WrongPhase when
    no deal is waiting to be dealt.
    """
    with transaction.atomic():
        locked = _lock(match)
        _require_running(locked)
        if expected_seq != locked.seq:
            raise StaleSequence(expected=expected_seq, current=locked.seq)
        state = load_state(locked)
        if state.phase is not rules.Phase.ROUND_OVER:
            raise WrongPhase()
        state = _deal(locked, state)
        _project(locked, state)
        outcome = _announce(locked, state, _seats(locked))
    return outcome


def _deal(match: Match, state: rules.State) -> rules.State:
    """Append the next deal from a fresh seed, with a snapshot of the dealt state."""
    payload = dealing.new_deal_payload(state.next_dealer)
    _append(match, Event.Kind.DEAL, payload)
    state = rules.start_deal(state, payload["deal"]["deck"])
    DealSnapshot.objects.create(match=match, seq=match.seq, state=rules.snapshot(state))
    # Saved with the other projections by _project, which always follows.
    match.deal_number += 1
    match.deal_commitment = payload["deal"].get("commitment", "")
    return state


def _append(
    match: Match,
    kind: str,
    payload: dict[str, Any],
    *,
    actor_seat: int | None = None,
    auto: bool = False,
    stand_in: bool = False,
) -> None:
    """Insert the match's next event; the unique (match, seq) refuses a racing twin.

    The event is noted on ``match`` for the announcement of the change.
    """
    match.seq += 1
    rows.insert_event(match, kind, payload, actor_seat, auto, stand_in)
    steps.note_appended(match, kind, payload)


def _project(match: Match, state: rules.State, seats: dict[int, Seat] | None = None) -> None:
    """Bring the match's projected fields in line with ``state`` and save them."""
    score = state.score
    match.score_a = score["A"]
    match.score_b = score["B"]
    match.winner = state.winner
    # The next seat's clock starts with the event that gave it the turn.
    match.deadline = deadline_for(match, state, seats=seats)
    fields = ["seq", "score_a", "score_b", "winner", "deadline", "deal_number", "deal_commitment"]
    if state.phase is rules.Phase.MATCH_OVER:
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        fields += ["status", "finished_at"]
    rows.update_match(match, fields)


def _announce(match: Match, state: rules.State, seats: dict[int, Seat]) -> Outcome:
    """The outcome of the change, with the events it appended, announced once committed
    (to this process with its version)."""
    outcome = Outcome(versions.MatchVersion(match, state, seats), tuple(steps.take_appended(match)))
    announce_on_commit(
        match.pk, match.seq, deadline=match.deadline, version=outcome.version, events=outcome.events
    )
    return outcome


def _announce_seats(match: Match) -> None:
    """Announce a change of the seats (the event number stays as it is)."""
    announce_on_commit(match.pk, match.seq, deadline=match.deadline)


def _due_action(seat: Seat, state: rules.State) -> tuple[dict[str, Any], bool]:
    """What the seat to act does now its turn fell due, and whether the timer forced it.

    A person's forced action counts as a missed turn; the seat row is
    updated here, inside the caller's transaction, so that the deadline the
    recorded action sets already knows whether the seat is now away.
    """
    if seat.is_bot or seat.away:
        action = choose_action(
            state, seat.number, level=seat.bot_level, budget_ms=settings.BOT_DECISION_MS
        )
        return action, False
    seat.missed_turns += 1
    if seat.missed_turns >= MISSED_TURNS_BEFORE_AWAY:
        seat.away = True
    seat.save(update_fields=["missed_turns", "away"])
    return rules.forced_action(state), True


def _restart_clock_of(match: Match, number: int) -> None:
    """Bring seat ``number``'s deadline forward, if it is to act, for the bot now playing it.

    A player leaving hands the turn to the bot, which acts after its short
    delay; a deadline is only ever moved earlier here, never later.
    """
    state = load_state(match)
    if state.turn == number:
        sooner = deadline_for(match, state)
        if sooner is not None and (match.deadline is None or sooner < match.deadline):
            match.deadline = sooner
            match.save(update_fields=["deadline"])


# --- Checks -------------------------------------------------------------------


def _match_id(match: MatchRef) -> int:
    """The primary key of ``match``; raises MatchNotFound for anything else."""
    if isinstance(match, Match):
        return match.pk
    if type(match) is int:
        return match
    raise MatchNotFound()


def _lock(match: MatchRef) -> Match:
    """The match row, locked until the transaction ends; raises MatchNotFound."""
    locked = rows.lock(_match_id(match))
    if locked is None:
        raise MatchNotFound()
    return locked


def _seats(match: Match) -> dict[int, Seat]:
    """The match's seats by number, with their players."""
    return rows.seats(match)


def _own_seat(match: Match, user: Any) -> Seat:
    """The seat ``user`` holds in ``match``; raises NotYourSeat."""
    seat = access.own_seat(match, user)
    if seat is None:
        raise NotYourSeat(_("You do not have a seat at this table."))
    return seat


def _require_user(user: Any) -> None:
    """Raises NotAllowed unless ``user`` is logged in."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Please log in first."))


def _require_runner(match: Match, seats: dict[int, Seat], user: Any) -> None:
    """Raises NotAllowed unless ``user`` may run the table (``access.may_run``)."""
    if not access.may_run(match, seats.values(), user):
        if access.is_member(match, seats.values(), user):
            raise NotTheHost()
        raise NotAllowed()


def _require_waiting(match: Match) -> None:
    """Raises MatchNotWaiting once the match has started."""
    if match.status != Match.Status.WAITING:
        raise MatchNotWaiting()


def _require_running(match: Match) -> None:
    """Raises MatchNotRunning unless the match is being played."""
    if match.status != Match.Status.PLAYING:
        raise MatchNotRunning(
            _("This match is not being played: it is “%(status)s”."),
            status=match.get_status_display(),
        )


def _check_seat_number(number: object) -> None:
    """Raises InvalidSeat unless ``number`` is 1, 2, 3 or 4."""
    if type(number) is not int or number not in SEAT_NUMBERS:
        raise InvalidSeat()


def _check_bot_level(level: object) -> None:
    if level not in BotLevel.values:
        raise InvalidSetting(_("Unknown bot level: choose easy, normal or strong."))


def _check_expected_seq(expected_seq: object) -> int:
    """``expected_seq`` as an event number; raises MalformedAction for anything else."""
    if not isinstance(expected_seq, int) or type(expected_seq) is bool or expected_seq < 0:
        raise MalformedAction(_("The move number you saw must be a whole number."))
    return expected_seq


def _payload(seat: int, fields: dict[str, Any], *, auto: bool) -> dict[str, Any]:
    """The notation action to store: the seat first, then the verb and its companions."""
    payload = {"seat": seat, **{k: v for k, v in fields.items() if k != "seat"}}
    if auto:
        payload["auto"] = True
    return payload


def _conflict(
    match_id: int, expected_seq: int, payload: dict[str, Any], current_seq: int | None = None
) -> ServiceError:
    """The answer to a submission made against an out-of-date move number.

    DuplicateAction when the very same action was recorded right after the
    move the client saw (a double click, a replayed request), else
    StaleSequence.
    """
    if current_seq is None:
        current_seq = Match.objects.filter(pk=match_id).values_list("seq", flat=True).first() or 0
    if expected_seq < current_seq:
        recorded = Event.objects.filter(
            match_id=match_id, seq=expected_seq + 1, kind=Event.Kind.ACTION
        ).first()
        if recorded is not None and _same_action(recorded.payload, payload):
            return DuplicateAction()
    return StaleSequence(expected=expected_seq, current=current_seq)


def _same_action(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """True when two actions say the same thing, whatever their time stamps."""

    def meaning(action: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in action.items() if k != "at"}

    return meaning(a) == meaning(b)


def _refusal(error: rules.IllegalAction) -> ServiceError:
    """The service error for an action the rules engine refused, in the reader's language."""
    if isinstance(error, rules.NotYourTurn):
        return NotYourTurn()
    message = lazy_rule_message(error)
    if isinstance(error, rules.WrongPhase):
        return WrongPhase(message)
    if isinstance(error, rules.MalformedAction):
        return MalformedAction(message)
    return IllegalMove(message, error.code, **error.params)
