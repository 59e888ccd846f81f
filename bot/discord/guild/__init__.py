"""The bot in a server: who moderates, what Discord says of a caller, the channel access
and permissions the bot needs, and the dead kept quiet in the game channel."""
