"""Message components: the lobby's Join/Leave buttons, the order panel and the grail
form, a finished game's Replay button, the Table button, standby offers, the
confirmation buttons of ``/mod end`` and ``/stats forget``, and the pages of ``/game
history`` and ``/leaderboard``. Every component is a ``DynamicItem`` whose
``custom_id`` carries the ids it needs (game, round, phase, skill, seat); the rest is
read from the database when it is used, so the buttons on old messages keep working
after a restart. ``registry`` lists them all for the bot to register."""
