"""The worker's side: playing the turns that fell due (bots, expired timers, next deals)."""
