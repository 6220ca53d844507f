"""``manage.py rebuild_profiles``: players' statistics recounted from the log, ratings replayed."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.ratings.rebuild import rebuild


class Command(BaseCommand):
    help = (
        "Recount every player's statistics from the event log and replay every rated match in "
        "the order it was rated (recording matches finished before ratings existed), then store "
        "the results in place of the kept ones, in one transaction."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        stats, ratings = rebuild()
        self.stdout.write(
            self.style.SUCCESS(f"Rebuilt {stats} statistics rows and {ratings} ratings.")
        )
