"""Configuration and the service hub shared by every part of the emulator.

REST handlers, the gateway and the user-side API all need the same world,
recorder, clock and services; :class:`SandboxContext` wires them once so no
module has to construct (or duplicate) another's collaborators.
"""

from __future__ import annotations

from dataclasses import dataclass

from .command_access import CommandAccess
from .commands import CommandStore
from .gateway import PRIVILEGED_INTENTS, Gateway
from .guild_ops import GuildOps
from .interactions import InteractionService
from .messages import MessageService
from .ratelimit import RateLimiter
from .recorder import Recorder
from .state import SnowflakeFactory, User
from .waiting import Clock, Notifier
from .world import Application, World


@dataclass
class SandboxConfig:
    """Knobs of the emulated Discord; defaults match production where it matters.

    ``privileged_intents`` lists the privileged intents "enabled in the
    developer portal" (``"members"``, ``"presences"``, ``"message_content"``);
    identifying with others closes the gateway with 4014 like Discord does.
    """

    def recommended_shards(self, guild_count: int) -> int:
        """The ``shards`` of GET /gateway/bot for a bot in ``guild_count`` servers."""
        return max(1, -(-guild_count // self.guilds_per_recommended_shard))

    token: str = "sandbox-bot-token"
    bot_name: str = "SandboxBot"
    heartbeat_interval: float = 41.25
    interaction_timeout: float = 3.0
    token_lifetime: float = 15 * 60.0
    session_ttl: float = 120.0
    privileged_intents: tuple[str, ...] = ()
    attachment_size_limit: int = 10 * 1024 * 1024
    realistic_ratelimits: bool = False
    default_ratelimit: tuple[int, float] = (50, 1.0)
    # Sharding (https://discord.com/developers/docs/events/gateway#sharding): GET
    # /gateway/bot recommends one shard per ``guilds_per_recommended_shard`` servers, and
    # an IDENTIFY whose shard would hold more than ``max_guilds_per_shard`` is closed
    # with 4011 "Sharding required".
    guilds_per_recommended_shard: int = 1000
    max_guilds_per_shard: int = 2500

    @property
    def privileged_mask(self) -> int:
        mask = 0
        for name in self.privileged_intents:
            mask |= PRIVILEGED_INTENTS[name]
        return mask


class SandboxContext:
    """Owns the world and every service operating on it."""

    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self.snowflakes = SnowflakeFactory()
        bot = User(id=self.snowflakes.next(), username=config.bot_name, bot=True)
        owner = User(id=self.snowflakes.next(), username=f"{config.bot_name}-developer")
        self.application = Application(
            id=bot.id, name=config.bot_name, owner=owner, bot=bot, token=config.token
        )
        self.world = World(self.application, self.snowflakes)
        self.notifier = Notifier()
        self.clock = Clock(self.notifier)
        self.limiter = RateLimiter(*config.default_ratelimit)
        if config.realistic_ratelimits:
            self.limiter.apply_realistic_preset()
        self.recorder = Recorder(self.world, self.notifier)
        self.base_url = ""  # "http://127.0.0.1:<port>", set once the server listens
        self.gateway = Gateway(self)
        self.messages = MessageService(self)
        self.commands = CommandStore(self.application.id, self.snowflakes)
        self.command_access = CommandAccess(self)
        self.guild_ops = GuildOps(self)
        self.interactions = InteractionService(self)

    @property
    def bot(self) -> User:
        return self.application.bot

    def attachment_url(self, channel_id: int, attachment_id: int, filename: str) -> str:
        """Attachments are served by the emulator itself, so ``Attachment.read()`` works."""
        return f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}"
