"""The game on the local Discord (:mod:`discord_emulator`): scripted players and tables,
the terminal demo (``wolfhowl demo``) and the runner that plays a whole game against a
bot in another process (``python -m bot.cli.external``)."""
