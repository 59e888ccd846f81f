"""Discord-side settings: the shared :class:`bot.config.Config` plus what only the bot
process needs. Same sources and priority: explicit arguments, ``WOLFHOWL_*`` environment
variables, then ``config.toml`` (or the file named by ``WOLFHOWL_CONFIG``)."""

from __future__ import annotations

from typing import Any, Literal, cast

from pydantic import Field, ValidationInfo, field_validator

from bot.config import Config, read_config
from bot.event_loop import EventLoopKind


class DiscordConfig(Config):
    """Everything ``wolfhowl run`` reads. The token is never printed (``repr=False``)."""

    # Who may run moderator commands besides members with Manage Server: a role name or
    # role id (empty: Manage Server only). The creator of a game moderates it too.
    moderator_role: str = ""
    # Whether a new game's dead stay quiet (a game's own: /mod settings quiet_dead): the
    # dead lose the right to write in the game channel and talk in a channel of their
    # own. Needs Manage Channels, Manage Roles and what the mute denies
    # (permissions.QUIET); off for a game when the bot lacks them.
    quiet_dead: bool = True
    # Register the slash commands at start-up: globally, or in these guilds only (guild
    # commands update at once, global ones can take a while to appear).
    sync_commands: bool = True
    command_guild_ids: list[int] = Field(default_factory=list)
    # Run the database migrations before connecting.
    migrate_on_start: bool = True
    # After the gateway's READY, discord.py waits this long past the last server's
    # GUILD_CREATE before the bot is ready (its ``guild_ready_timeout``, 2 s by default,
    # as on Discord, where a large bot's servers arrive over seconds). The local Discord
    # sends them all at once: its tables and the demo set it shorter.
    guild_ready_timeout: float = Field(default=2.0, gt=0, le=60)
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
    # The log's form: "text" (one line a record, for a person) or "json" (one JSON
    # object a line, for a log shipper: bot.log_context).
    log_format: Literal["text", "json"] = "text"
    # Serve Prometheus's exposition at http://metrics_host:metrics_port/metrics
    # (bot.discord.metrics_server); unset: no metrics at all.
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"
    # The event loop (bot.event_loop): "auto" (uvloop where installed, else asyncio's),
    # "uvloop" (refuse to start without it) or "asyncio".
    event_loop: EventLoopKind = "auto"
    # Games the baseline AI plays, in a worker process, to estimate a lobby's odds for
    # its line-up (bot.features.lineup.runner); 0: no estimate (the lobby shows none).
    lineup_odds_games: int = Field(default=1000, ge=0, le=100000)
    # This process's name in the database (``processes``): one live process per name, so
    # a process started under a name takes over at once what the last one of that name
    # held (a restart after a crash). Empty: the host's name and its shards
    # (``bot-1:0-1/4``). Give each process its own when several run on one host with
    # the same shards. (``wolfhowl health`` goes by the host, whatever the name.)
    process_name: str = ""
    # Sharding (docs/deploy.md): how many shards the bot has in all, a number or "auto"
    # (Discord's recommendation, from GET /gateway/bot), and which of them this process
    # runs (empty: all). Unset (or ""): one process, one connection, no sharding.
    shard_count: int | Literal["auto"] | None = None
    shard_ids: list[int] = Field(default_factory=list)
    # Point discord.py elsewhere (the local emulator): REST base and gateway URL.
    api_base: str = ""
    gateway_url: str = ""

    @field_validator("lineup_odds_games")
    @classmethod
    def _odds_games(cls, value: int) -> int:
        if 0 < value < 1000:
            raise ValueError("0 (no estimate) or at least 1000: fewer games give intervals too wide to tell a fair line-up")
        return value

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        value = value.upper()
        if value not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return value


    @field_validator("metrics_port", mode="before")
    @classmethod
    def _metrics_port(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().lower() in ("", "none"):
            return None  # WOLFHOWL_METRICS_PORT= (empty): off
        return value

    @field_validator("shard_count", mode="before")
    @classmethod
    def _count(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().lower() in ("", "none"):
            return None
        if isinstance(value, str) and value.strip().lower() == "auto":
            return "auto"
        if isinstance(value, str) and value.strip().isdigit():
            return int(value)
        if isinstance(value, bool) or (value is not None and value != "auto" and not isinstance(value, int)):
            raise ValueError('a number of shards (1 or more) or "auto"')
        return value

    @field_validator("shard_count")
    @classmethod
    def _count_positive(cls, value: int | str | None) -> int | str | None:
        if isinstance(value, int) and value < 1:
            raise ValueError(f'at least 1 shard (or "auto"), not {value}')
        return value

    @field_validator("shard_ids")
    @classmethod
    def _ids(cls, ids: list[int], info: ValidationInfo) -> list[int]:
        """Shard ids fit the count (``shard_count`` is validated first: declared first)."""
        count = info.data.get("shard_count")
        if ids:
            if not isinstance(count, int):
                raise ValueError(
                    "shard_ids needs shard_count as a number: every process must split the servers the same way"
                    + (' ("auto" could differ between processes)' if count == "auto" else "")
                )
            wrong = [i for i in ids if not 0 <= i < count]
            if wrong:
                raise ValueError(f"{wrong} out of range: with shard_count = {count}, shard ids run from 0 to {count - 1}")
            if len(set(ids)) != len(ids):
                raise ValueError(f"shard_ids lists a shard twice: {ids}")
        return ids

    @property
    def sharded(self) -> bool:
        """Whether the bot runs discord.py's sharded client (a shard setting is given)."""
        return self.shard_count is not None

    def shards_label(self) -> str:
        """The shards this process runs, for its name and its log: "0-1/4", "2,5/8",
        "all/auto"; empty when not sharded."""
        if self.shard_count is None:
            return ""
        ids = sorted(self.shard_ids)
        if not ids:
            which = "all"
        elif ids == list(range(ids[0], ids[-1] + 1)) and len(ids) > 1:
            which = f"{ids[0]}-{ids[-1]}"
        else:
            which = ",".join(map(str, ids))
        return f"{which}/{self.shard_count}"


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
