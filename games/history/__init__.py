"""Looking back: my matches, the match page, deal replays, notation export and import."""
