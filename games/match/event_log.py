"""Reading a match's event log back into rules-engine state.

``load_state`` is the fast path: the latest deal snapshot plus the events
after it, in two queries however long the match is (the match's snapshots,
each holding the engine state at a deal's start and one deal result, then
the events of the current deal).
``rebuild_state`` ignores snapshots and folds every event from the start; it is
what ``first_inconsistency`` (admin "verify", ``verify_matches``) and the
tests trust.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from games import rules
from games.match.models import DealSnapshot, Event, Match
from games.match.rule_messages import rule_message

logger = logging.getLogger(__name__)

CURRENT_PAYLOAD_VERSION = 1


class LogError(Exception):
    """A stored event that does not rebuild; ``seq`` names it."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq
        self.message = message

    def __str__(self) -> str:
        return _("Event %(seq)s: %(message)s") % {"seq": self.seq, "message": self.message}


def upgrade_payload(seq: int, payload: Any, version: int) -> dict[str, Any]:
    """The payload in the current format; raises LogError for a version this code cannot read.

    Version 1 is the current format. A later format adds a conversion here so
    that old events keep loading.
    """
    if version != CURRENT_PAYLOAD_VERSION:
        raise LogError(seq, _("unknown payload version %(version)s") % {"version": version})
    if not isinstance(payload, dict):
        raise LogError(seq, _("the payload is not an object"))
    return payload


def initial_state(match: Match) -> rules.State:
    """The engine state before a match's first event."""
    return rules.new_match(match.mode, dealer=match.first_dealer or 4)


def apply_event(state: rules.State, event: Event) -> rules.State:
    """The state after ``event``; raises LogError if the event does not fit ``state``."""
    return apply_recorded(state, event.seq, event.kind, event.payload, event.payload_version)


def apply_recorded(
    state: rules.State, seq: int, kind: str, payload: Any, version: int
) -> rules.State:
    """The state after the event ``seq`` recorded as ``kind`` with ``payload`` in format
    ``version``; raises LogError if it does not fit ``state``."""
    payload = upgrade_payload(seq, payload, version)
    try:
        if kind == Event.Kind.ABORT:
            return state
        if kind == Event.Kind.DEAL:
            deal = payload["deal"]
            if deal["dealer"] != state.next_dealer:
                raise LogError(
                    seq,
                    _("seat %(dealer)s deals, but it is seat %(expected)s's deal")
                    % {"dealer": deal["dealer"], "expected": state.next_dealer},
                )
            return rules.start_deal(state, deal["deck"])
        return rules.apply(state, payload)
    except rules.IllegalAction as error:
        raise LogError(seq, rule_message(error)) from error
    except (KeyError, TypeError) as error:
        raise LogError(seq, _("the payload is incomplete")) from error


def fold(state: rules.State, events: Iterable[Event]) -> rules.State:
    """Applies ``events`` in order; raises LogError at the first that does not fit."""
    for event in events:
        state = apply_event(state, event)
    return state


def load_state(match: Match) -> rules.State:
    """The match's current state from its latest usable snapshot and the events after it.

    Each snapshot keeps the engine's state at a deal's start and the result of
    the deal before it, so the match's snapshots, read in one query, give the
    latest state and every earlier result. Snapshots are only a cache: from
    the first one the engine cannot use (another engine version, unreadable,
    or a gap in the results) on, they are ignored, and with none usable the
    state is rebuilt from the log. Raises LogError if the stored log does not
    rebuild.
    """
    rows = DealSnapshot.objects.filter(match=match).order_by("seq").values_list("seq", "state")
    usable: tuple[int, Any, list[rules.RoundResult]] | None = None
    history: list[rules.RoundResult] = []
    for seq, data in rows:
        try:
            start, own = rules.snapshot_results(data)
        except rules.StaleSnapshot:
            break
        except (KeyError, TypeError, ValueError):
            logger.warning("match %s: unreadable snapshot at %s", match.pk, seq)
            break
        if start > len(history):
            break  # a snapshot is missing: the results between are unknown here
        earlier = history[:start]
        usable = (seq, data, earlier)
        history = [*earlier, *own]
    if usable is None:
        return rebuild_state(match)
    seq, data, earlier = usable
    try:
        state = rules.restore(data, earlier)
    except (KeyError, TypeError, ValueError):
        logger.warning("match %s: unreadable snapshot at %s", match.pk, seq)
        return rebuild_state(match)
    return fold(state, Event.objects.filter(match=match, seq__gt=seq).order_by("seq"))


def rebuild_state(match: Match) -> rules.State:
    """The match's current state rebuilt from its first event, ignoring snapshots.

    Raises LogError if the stored log does not rebuild.
    """
    return fold(initial_state(match), Event.objects.filter(match=match).order_by("seq"))


def first_inconsistency(match: Match) -> str | None:
    """What is wrong with the match's stored log and projections, or None if nothing is.

    Checks, in log order: numbering, each event against the rules and its own
    metadata, each deal's deck against its seed and commitment, every
    snapshot, and finally the match's projected status, scores and winner.
    """
    snapshots = {s.seq: s.state for s in DealSnapshot.objects.filter(match=match)}
    state = initial_state(match)
    expected_seq = 0
    for event in Event.objects.filter(match=match).order_by("seq"):
        expected_seq += 1
        if event.seq != expected_seq:
            return _("Event %(seq)s is missing from the log.") % {"seq": expected_seq}
        try:
            state = apply_event(state, event)
        except LogError as error:
            return str(error)
        problem = _event_problem(event, imported=match.imported)
        if problem is None and event.seq in snapshots:
            problem = _snapshot_problem(event, state, snapshots.pop(event.seq))
        if problem is not None:
            return str(LogError(event.seq, problem))
    if snapshots:
        return _("A snapshot refers to event %(seq)s, which is not in the log.") % {
            "seq": min(snapshots)
        }
    return _projection_problem(match, state, expected_seq)


def _event_problem(event: Event, *, imported: bool = False) -> str | None:
    """What is wrong with one event's metadata or deal record, or None.

    An imported deal was not dealt here: whatever seed its document names is
    the document's claim, shown with its check on the replay, not a fault.
    """
    payload = event.payload
    if event.kind == Event.Kind.DEAL:
        if imported:
            return None
        deal = payload["deal"]
        seed = deal.get("seed", "")
        try:
            deck_ok = rules.deck_from_seed(seed) == deal["deck"]
            commitment_ok = rules.commitment(seed) == deal.get("commitment")
        except ValueError:
            return _("the deal's seed is not a valid seed")
        if not deck_ok:
            return _("the deck does not come from the deal's seed")
        if not commitment_ok:
            return _("the commitment does not match the deal's seed")
        if event.actor_seat is not None or event.auto:
            return _("a deal has no actor and is never forced")
        return None
    if event.actor_seat != payload.get("seat"):
        return _("the recorded actor is not the seat in the action")
    if event.auto != bool(payload.get("auto")):
        return _("the timer flag does not match the action")
    return None


def _snapshot_problem(event: Event, state: rules.State, stored: Any) -> str | None:
    """What is wrong with the snapshot stored after ``event``, or None.

    A snapshot of another engine version is not a fault: loading ignores it.
    """
    if event.kind != Event.Kind.DEAL:
        return _("a snapshot is stored after an event that is not a deal")
    try:
        start, _own = rules.snapshot_results(stored)
        snapshot_state = rules.restore(stored, state.results[:start])
    except rules.StaleSnapshot:
        return None
    except (KeyError, TypeError, ValueError):
        return _("the snapshot cannot be read")
    if snapshot_state != state:
        return _("the snapshot differs from the replayed state")
    return None


def _projection_problem(match: Match, state: rules.State, last_seq: int) -> str | None:
    """What is wrong with the match's projected fields after rebuilding ``last_seq`` events."""
    if match.seq != last_seq:
        return _("The match says it is at event %(said)s, but its log ends at %(real)s.") % {
            "said": match.seq,
            "real": last_seq,
        }
    score = state.score
    if (match.score_a, match.score_b) != (score["A"], score["B"]):
        return _("The match's score %(a)s-%(b)s differs from the replayed %(ra)s-%(rb)s.") % {
            "a": match.score_a,
            "b": match.score_b,
            "ra": score["A"],
            "rb": score["B"],
        }
    if match.winner != state.winner:
        return _("The match's winner differs from the replayed winner.")
    aborted = Event.objects.filter(match=match, kind=Event.Kind.ABORT).exists()
    if aborted != (match.status == Match.Status.ABORTED):
        return _("The match's status does not agree with the abort in its log.")
    if aborted:
        return None
    if match.imported:
        # Every deal of an imported document is finished, whoever won.
        expected = Match.Status.FINISHED
    elif last_seq == 0:
        expected = Match.Status.WAITING
    elif state.phase is rules.Phase.MATCH_OVER:
        expected = Match.Status.FINISHED
    else:
        expected = Match.Status.PLAYING
    if match.status != expected:
        return _("The match's status is “%(status)s”, but its log says “%(expected)s”.") % {
            "status": match.get_status_display(),
            "expected": Match.Status(expected).label,
        }
    if (
        expected == Match.Status.PLAYING
        and state.phase is rules.Phase.ROUND_OVER
        and match.deadline is None
    ):
        return _("The last deal is over but the next one is never going to be dealt.")
    return None
