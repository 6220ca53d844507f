"""Sign-up, log-in, password change and the player's profile."""
