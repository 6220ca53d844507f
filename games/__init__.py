"""Matches of Baloot: the event log, the services that write it, and their pages."""
