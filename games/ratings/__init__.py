"""Players' ratings, leaderboards, public profiles and the statistics they show."""
