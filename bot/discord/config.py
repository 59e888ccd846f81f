"""Discord-side settings: the shared :class:`bot.config.Config` plus what only the bot
process needs. Same sources and priority: explicit arguments, ``WOLFHOWL_*`` environment
variables, then ``config.toml`` (or the file named by ``WOLFHOWL_CONFIG``)."""

from __future__ import annotations

from typing import Any, cast

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
    # The REST requests this process may start a second (Discord's global limit is 50 for
    # the whole bot: divide it between processes that share one token), and how many
    # destinations the outbox is delivered to at once.
    rest_rate_limit: int = Field(default=50, ge=1, le=50)
    dispatch_concurrency: int = Field(default=50, ge=1, le=500)
    log_level: str = "INFO"
    # This process's name in the database (``processes``): one live process per name, so
    # a process started under a name takes over at once what the last one of that name
    # held (a restart after a crash). Empty: the host's name. Give each process its own
    # when several run on one host.
    process_name: str = ""
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


def load_discord_config(*, named_by: str = "WOLFHOWL_CONFIG", **overrides: object) -> DiscordConfig:
    """The configuration as files and environment give it now; ConfigError when it cannot
    be read (``bot.config.read_config``; ``named_by``: what named the file, for its
    errors: ``--config`` when a command's option did)."""
    return read_config(DiscordConfig, named_by=named_by, **cast(dict[str, Any], overrides))


def config_for_command(config_option: str | None, **overrides: object) -> DiscordConfig:
    """The settings a ``wolfhowl`` command with a ``--config FILE`` option runs with
    (the option, else ``WOLFHOWL_CONFIG``, else ``./config.toml``); ConfigError."""
    import os

    if config_option:
        os.environ["WOLFHOWL_CONFIG"] = config_option
        return load_discord_config(named_by="--config", **cast(dict[str, Any], overrides))
    return load_discord_config(**cast(dict[str, Any], overrides))
