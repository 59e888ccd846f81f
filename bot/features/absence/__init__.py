"""Absent players: a phase's misses counted at its close, the warnings, and the game's
absence policy (a standby offered the seat, the seat removed or handed to the AI, the
moderator told). ``absence`` the use cases; ``look`` how they read."""
