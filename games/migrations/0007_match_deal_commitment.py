"""The deal on the table, projected on the match row: its number and commitment."""

from django.db import migrations, models


def project_current_deals(apps, schema_editor):
    """Fill in the deal number and commitment of every match dealt so far."""
    Match = apps.get_model("games", "Match")
    Event = apps.get_model("games", "Event")
    for match in Match.objects.filter(seq__gt=0).iterator():
        deals = Event.objects.filter(match=match, kind="deal").order_by("seq")
        commitments = list(deals.values_list("payload__deal__commitment", flat=True))
        if commitments:
            last = commitments[-1]
            match.deal_number = len(commitments)
            match.deal_commitment = last if isinstance(last, str) else ""
            match.save(update_fields=["deal_number", "deal_commitment"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_social"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="deal_number",
            field=models.PositiveIntegerField(default=0, verbose_name="deals dealt"),
        ),
        migrations.AddField(
            model_name="match",
            name="deal_commitment",
            field=models.CharField(
                blank=True, max_length=64, verbose_name="commitment of the last deal"
            ),
        ),
        migrations.RunPython(project_current_deals, migrations.RunPython.noop),
    ]
