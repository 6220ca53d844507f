"""``manage.py verify_matches``: rebuild every match from its log, report what does not add up."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.match.event_log import first_inconsistency
from games.match.models import Match
from games.ratings.rebuild import problems as projection_problems


class Command(BaseCommand):
    help = (
        "Rebuild every match from its event log, from the start, and check its deals, snapshots "
        "and projected scores; replay the ratings and recount players' statistics. Prints each "
        "inconsistency; exits with status 1 if any."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        checked = 0
        broken = 0
        for match in Match.objects.order_by("pk").iterator():
            checked += 1
            problem = first_inconsistency(match)
            if problem is not None:
                broken += 1
                self.stdout.write(f"match {match.pk}: {problem}")
        if broken:
            raise CommandError(f"{broken} of {checked} matches are inconsistent.", returncode=1)
        # Ratings replayed in the order they were made, statistics recounted
        # from the log: both must equal what the services kept.
        projections = projection_problems()
        for problem in projections:
            self.stdout.write(problem)
        if projections:
            raise CommandError(
                f"{len(projections)} ratings or statistics differ from their rebuild.", returncode=1
            )
        self.stdout.write(self.style.SUCCESS(f"All {checked} matches replay consistently."))
        self.stdout.write(self.style.SUCCESS("Ratings and statistics match their rebuild."))
