"""Outbox messages on their way to Discord: paced under Discord's global rate limit
(``pacer``), and the moderator's DMs sent outside any command (``moderator_dm``). How a
message reads is the presentation's (``bot.render.outgoing`` and the features' looks)."""
