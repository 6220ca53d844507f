"""Which actions the stand-in bot chose for an away person, so the leaver rule reads the log.

Events recorded before this field say nothing of it (False): for those
matches only the timer's forced actions and the seat being away at the end
tell a leaver, as they did.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0013_rating_policy"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="stand_in",
            field=models.BooleanField(default=False, verbose_name="played by the stand-in bot"),
        ),
    ]
