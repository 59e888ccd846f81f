"""The bot's background loops: the outbox dispatcher, the phase scheduler, the reconciler
that brings Discord's side in line with the database after a restart, the heartbeat, the
line-up odds runner and the watch for games whose channel is gone."""
