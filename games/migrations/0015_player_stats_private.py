"""Players' statistics from private tables kept apart from the others.

The rows already stored count private and public tables together and are
left as they are, as public counts: ``manage.py rebuild_profiles`` recounts
them from the event log into the two kinds (``verify_matches`` reports the
difference until then).
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0014_event_stand_in"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="playerstats",
            name="stats_one_per_mode",
        ),
        migrations.AddField(
            model_name="playerstats",
            name="private",
            field=models.BooleanField(default=False, verbose_name="at private tables"),
        ),
        migrations.AddConstraint(
            model_name="playerstats",
            constraint=models.UniqueConstraint(
                fields=("user", "mode", "private"), name="stats_one_per_mode_and_privacy"
            ),
        ),
    ]
