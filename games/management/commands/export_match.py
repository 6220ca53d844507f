"""``manage.py export_match ID``: print a match as a baloot/1 notation document."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import rules
from games.history.notation_export import match_document
from games.match.event_log import LogError
from games.match.models import Match


class Command(BaseCommand):
    help = (
        "Write a match's finished deals to standard output as a baloot/1 notation "
        "document (the deal in progress, if any, is left out)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int, help="the match's number")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            match = Match.objects.get(pk=options["match_id"])
        except Match.DoesNotExist:
            raise CommandError(f"There is no match {options['match_id']}.") from None
        try:
            document = match_document(match)
        except LogError as error:
            raise CommandError(f"Match {match.pk} cannot be exported: {error}") from None
        self.stdout.write(rules.write_document(document), ending="")
