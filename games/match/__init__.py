"""The write side: models, the event log, the services that write it, and who may do what."""
