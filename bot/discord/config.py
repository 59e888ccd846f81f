"""Discord-side settings: the shared :class:`bot.config.Config` plus what only the bot
process needs. Same sources and priority: explicit arguments, ``WOLFHOWL_*`` environment
variables, then ``config.toml`` (or the file named by ``WOLFHOWL_CONFIG``)."""

from __future__ import annotations

from pydantic import Field, field_validator

from bot.config import Config, read_config


class DiscordConfig(Config):
    """Everything ``wolfhowl run`` reads. The token is never printed (``repr=False``)."""

    # Who may run moderator commands besides members with Manage Server: a role name or
    # role id (empty: Manage Server only). The creator of a game moderates it too.
    moderator_role: str = ""
    # Default of /mod create's quiet_dead option (the dead lose the right to write in
    # the game channel and talk in a channel of their own). Needs Manage Channels, Manage
    # Roles and what the mute denies (permissions.QUIET); off for a game when the bot
    # lacks them.
    quiet_dead: bool = True
    # Register the slash commands at start-up: globally, or in these guilds only (guild
    # commands update at once, global ones can take a while to appear).
    sync_commands: bool = True
    command_guild_ids: list[int] = Field(default_factory=list)
    # Run the database migrations before connecting.
    migrate_on_start: bool = True
    # The scheduler sleeps until the next deadline or reminder, but never longer.
    scheduler_max_sleep: float = Field(default=30.0, gt=0)
    # The outbox dispatcher polls this often when nothing woke it.
    dispatch_interval: float = Field(default=2.0, gt=0)
    log_level: str = "INFO"
    # Point discord.py elsewhere (the local emulator): REST base and gateway URL.
    api_base: str = ""
    gateway_url: str = ""

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        value = value.upper()
        if value not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return value


def load_discord_config(**overrides: object) -> DiscordConfig:
    """The configuration as files and environment give it now; ConfigError when it cannot
    be read (``bot.config.read_config``)."""
    return read_config(DiscordConfig, **overrides)
