"""The rating policy's fields: why a match is unrated, and whether the site chose its seats.

Matches marked ``unrated`` before (quick matches filled with bots and their
rematches) get the reason "bots". Every other existing match keeps no
reason: it was rated, or not, by the rule of its day, and the rebuild reads
that back unchanged.
"""

from django.db import migrations, models


def reason_of_the_unrated(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Match.objects.filter(unrated=True).update(unrated_reason="bots")


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_stopped_match_last_deal"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="seats_assigned",
            field=models.BooleanField(default=False, verbose_name="seats assigned by the site"),
        ),
        migrations.AddField(
            model_name="match",
            name="unrated_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("bots", "a bot in a seat"),
                    ("private", "private table"),
                    ("chosen_seats", "seats chosen by the players"),
                    ("same_four", "the same four played a rated match shortly before"),
                    ("daily_limit", "two of the players met in enough rated matches today"),
                ],
                max_length=16,
                verbose_name="why unrated",
            ),
        ),
        migrations.RunPython(reason_of_the_unrated, migrations.RunPython.noop),
    ]
