"""Arabic date and time formats missing from Django's: a match's start and end times.

Django's Arabic locale has no DATETIME_FORMAT, so dates with times fell back
to the English pattern ("ديسمبر 2, 2026, 1:25 م"); this one follows its
DATE_FORMAT, then the time on a 24-hour clock.
"""

from __future__ import annotations

DATETIME_FORMAT = "j F، Y، H:i"
