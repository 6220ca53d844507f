"""What the accounts app tells the rest of the site, which it does not import.

Django sends ``user_logged_out`` itself; it has no signal for a changed
password, so ``password_changed`` is sent here, by the password-change page,
once the new password is saved (with ``user``, whose other sessions have
ended). The games app connects its receivers to both in
``GamesConfig.ready``, where an open table page learns that its session
ended: accounts never calls into games.
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent with ``user`` (keyword) after their password changed and was saved.
password_changed = Signal()
