"""Outbox messages on their way to Discord: rendered in each reader's language
(``renderers``), paced under Discord's global rate limit (``pacer``), and the moderator's
DMs sent outside any command (``moderator_dm``)."""
