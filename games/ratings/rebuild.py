"""The projections recomputed from scratch: statistics from the event log, ratings by replay.

``stats_from_log`` folds every match's events through the rules engine and
counts each deal as it ends, with the same counting as the live projection.
``replay_ratings`` rates the recorded rated matches again, in the order they
were rated, from everyone's starting rating. ``problems`` compares both with
what is stored (``manage.py verify_matches``); ``rebuild`` overwrites what
is stored with them (``manage.py rebuild_profiles``).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from games.match.event_log import apply_event, initial_state
from games.match.models import Event, Match, Seat
from games.ratings import formula, stats
from games.ratings.models import PlayerRating, PlayerStats, RatedMatch, RatedSeat
from games.ratings.recording import is_rated, leavers

Key = tuple[int, str]  # (user id, mode)
StatsKey = tuple[int, str, bool]  # (user id, mode, at private tables)


def stats_from_log() -> dict[StatsKey, Counter[str]]:
    """Every player's statistics counted again from the event log of every match,
    a private table's apart.

    Raises LogError for a log that does not rebuild (``verify_matches`` reports those).
    """
    totals: dict[StatsKey, Counter[str]] = defaultdict(Counter)
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for match_id, number, user_id in Seat.objects.filter(user__isnull=False).values_list(
        "match_id", "number", "user_id"
    ):
        seats[match_id][number] = user_id
    matches = Match.objects.filter(imported=False, seq__gt=0).order_by("pk")
    for match in matches.iterator():
        users = seats.get(match.pk, {})
        private = match.is_private
        state = initial_state(match)
        for event in Event.objects.filter(match=match).order_by("seq").iterator():
            ended = len(state.results)
            state = apply_event(state, event)
            if len(state.results) > ended:
                for number, counts in stats.deal_counts(state).items():
                    if number in users:
                        totals[(users[number], match.mode, private)].update(counts)
        if match.status == Match.Status.FINISHED and state.winner is not None:
            for number, counts in stats.match_counts(state.winner).items():
                if number in users:
                    totals[(users[number], match.mode, private)].update(counts)
    return {key: +c for key, c in totals.items() if any(c.values())}


@dataclass
class Replayed:
    """The ratings the rated matches give when replayed in order."""

    skills: dict[Key, formula.Skill] = field(default_factory=dict)
    counts: Counter[Key] = field(default_factory=Counter)
    last: dict[Key, datetime] = field(default_factory=dict)
    # RatedSeat id -> (before, after)
    seats: dict[int, tuple[formula.Skill, formula.Skill]] = field(default_factory=dict)


def replay_ratings() -> Replayed:
    """Rate every recorded rated match again, in the order it was rated."""
    out = Replayed()
    rated = RatedMatch.objects.order_by("id").prefetch_related("seats")
    for rated_match in rated.iterator(chunk_size=500):
        by_seat = {row.seat: row for row in rated_match.seats.all()}
        before = {
            n: out.skills.get((row.user_id, rated_match.mode), formula.Skill())
            for n, row in by_seat.items()
        }
        leavers = frozenset(n for n, row in by_seat.items() if row.left)
        after = formula.rate(before, rated_match.winner, leavers)
        for number, row in by_seat.items():
            key = (row.user_id, rated_match.mode)
            out.skills[key] = after[number]
            out.counts[key] += 1
            out.last[key] = row.rated_at
            out.seats[row.pk] = (before[number], after[number])
    return out


def problems() -> list[str]:
    """What the stored ratings and statistics get wrong, one sentence each; empty if nothing."""
    found = _rated_set_problems()
    replayed = replay_ratings()
    for row in RatedSeat.objects.order_by("id").iterator():
        before, after = replayed.seats[row.pk]
        if not (
            _same(row.mu_before, before.mu)
            and _same(row.sigma_before, before.sigma)
            and _same(row.mu_after, after.mu)
            and _same(row.sigma_after, after.sigma)
            and row.display_after == after.shown
        ):
            found.append(
                _("Match %(match)s: the rating change of %(user)s does not replay.")
                % {"match": row.rated_match.match_id, "user": row.user}
            )
    stored = {(r.user_id, r.mode): r for r in PlayerRating.objects.select_related("user")}
    for key in sorted(set(stored) | set(replayed.skills)):
        rating = stored.get(key)
        skill = replayed.skills.get(key)
        if (
            rating is None
            or skill is None
            or not (_same(rating.mu, skill.mu) and _same(rating.sigma, skill.sigma))
            or rating.display != skill.shown
            or rating.rated_matches != replayed.counts[key]
            or rating.last_rated_at != replayed.last.get(key)
        ):
            found.append(
                _("The %(mode)s rating of player %(user)s differs from the replayed one.")
                % {"mode": key[1], "user": key[0]}
            )
    counted = stats_from_log()
    kept = {(s.user_id, s.mode, s.private): Counter(s.counts()) for s in PlayerStats.objects.all()}
    kept = {key: +c for key, c in kept.items() if any(c.values())}
    for stats_key in sorted(set(kept) | set(counted)):
        if kept.get(stats_key, Counter()) != counted.get(stats_key, Counter()):
            found.append(
                _("The %(mode)s statistics of player %(user)s differ from the event log.")
                % {"mode": stats_key[1], "user": stats_key[0]}
            )
    return found


def _rated_set_problems() -> list[str]:
    """Rated matches that should not be, and matches that should be rated but are not."""
    found = []
    recorded = {r.match_id: r for r in RatedMatch.objects.prefetch_related("seats")}
    seats: dict[int, list[Seat]] = defaultdict(list)
    finished = Match.objects.filter(status=Match.Status.FINISHED, imported=False)
    for seat in Seat.objects.filter(match__in=finished):
        seats[seat.match_id].append(seat)
    for match in finished.order_by("pk"):
        rated = recorded.pop(match.pk, None)
        if is_rated(match, seats[match.pk]) != (rated is not None):
            wording = (
                _("Match %(match)s should be rated.")
                if rated is None
                else _("Match %(match)s is rated but should not be.")
            )
            found.append(wording % {"match": match.pk})
            continue
        if rated is not None:
            users = {s.number: s.user_id for s in seats[match.pk]}
            rows = {r.seat: r.user_id for r in rated.seats.all()}
            if rated.winner != match.winner or rows != users or rated.mode != match.mode:
                found.append(
                    _("Match %(match)s: its rating does not record its players and winner.")
                    % {"match": match.pk}
                )
    for match_id in sorted(recorded):
        found.append(_("Match %(match)s is rated but never finished.") % {"match": match_id})
    return found


@transaction.atomic
def rebuild() -> tuple[int, int]:
    """Overwrite the statistics and ratings with the rebuilt ones: (statistics rows, ratings).

    The rated matches themselves (who sat where, who won, who left) are kept:
    they are the record the ratings are replayed from.
    """
    counted = stats_from_log()
    PlayerStats.objects.all().delete()
    PlayerStats.objects.bulk_create(
        PlayerStats(user_id=user, mode=mode, private=private, **dict(c))
        for (user, mode, private), c in counted.items()
    )
    _record_missing_rated_matches()
    replayed = replay_ratings()
    for row in RatedSeat.objects.select_for_update().iterator():
        before, after = replayed.seats[row.pk]
        row.mu_before, row.sigma_before = before.mu, before.sigma
        row.mu_after, row.sigma_after, row.display_after = after.mu, after.sigma, after.shown
        row.save(
            update_fields=["mu_before", "sigma_before", "mu_after", "sigma_after", "display_after"]
        )
    PlayerRating.objects.all().delete()
    PlayerRating.objects.bulk_create(
        PlayerRating(
            user_id=user,
            mode=mode,
            mu=skill.mu,
            sigma=skill.sigma,
            display=skill.shown,
            rated_matches=replayed.counts[(user, mode)],
            last_rated_at=replayed.last.get((user, mode)),
        )
        for (user, mode), skill in replayed.skills.items()
    )
    return len(counted), len(replayed.skills)


def _record_missing_rated_matches() -> None:
    """Record the rated matches that have no rating yet (finished before ratings existed).

    In the order they finished, after those already rated; who left is read
    from the log and the seats, as at a match's end (``recording.leavers``).
    Their rating changes are filled in by the replay that follows.
    """
    have = set(RatedMatch.objects.values_list("match_id", flat=True))
    finished = Match.objects.filter(status=Match.Status.FINISHED, imported=False)
    for match in finished.exclude(pk__in=have).order_by("finished_at", "pk").iterator():
        seats = list(Seat.objects.filter(match=match))
        if not is_rated(match, seats) or match.winner is None:
            continue
        left = leavers(match, seats)
        rated = RatedMatch.objects.create(
            match=match,
            mode=match.mode,
            winner=match.winner,
            rated_at=match.finished_at or match.created_at,
        )
        start = formula.Skill()
        RatedSeat.objects.bulk_create(
            RatedSeat(
                rated_match=rated,
                user=seat.user,
                mode=match.mode,
                seat=seat.number,
                won=seat.team == match.winner,
                left=seat.number in left,
                mu_before=start.mu,
                sigma_before=start.sigma,
                mu_after=start.mu,
                sigma_after=start.sigma,
                display_after=start.shown,
                rated_at=rated.rated_at,
            )
            for seat in seats
        )


def _same(a: float, b: float) -> bool:
    """Equal floats, allowing for a database that keeps a few bits fewer."""
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
