"""The :class:`Emulator`: app assembly, lifecycle and the test-facing API.

One aiohttp server on 127.0.0.1 serves REST under ``/api/v10``, the gateway
websocket on ``/`` (and ``/resume``, the advertised ``resume_gateway_url``)
and attachment downloads.  World building and user actions come from the
:class:`WorldBuilder` and :class:`UserActions` mixins; everything else here
is thin access to the recorder, rate limiter and gateway controls.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import web

from . import rest_core, rest_guilds, rest_interactions, rest_messages
from .builders import WorldBuilder
from .context import SandboxConfig, SandboxContext
from .gateway import ConnectionInfo
from .interactions import InteractionResult
from .recorder import RequestRecord
from .rest_base import API_PREFIX, CTX_KEY, sandbox_middleware
from .state import Message, User
from .users import UserActions

if TYPE_CHECKING:
    from typing import Self

T = TypeVar("T")
MAX_BODY = 64 * 1024 * 1024


class Emulator(WorldBuilder, UserActions):
    """A local Discord: ``async with Emulator() as emu: ...``.

    Keyword arguments override :class:`SandboxConfig` fields, e.g.
    ``Emulator(heartbeat_interval=0.5, interaction_timeout=3.0)``.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        config: SandboxConfig | None = None,
        **overrides: Any,
    ) -> None:
        config = config or SandboxConfig()
        for key, value in overrides.items():
            if not hasattr(config, key):
                raise TypeError(f"unknown emulator option {key!r}")
            setattr(config, key, value)
        self.host = host
        self._requested_port = port
        self.port = 0
        self.ctx = SandboxContext(config)
        self._runner: web.AppRunner | None = None

    # -- lifecycle -------------------------------------------------------
    def _build_app(self) -> web.Application:
        app = web.Application(middlewares=[sandbox_middleware], client_max_size=MAX_BODY)
        app[CTX_KEY] = self.ctx
        for module in (rest_core, rest_messages, rest_guilds, rest_interactions):
            module.setup(app)
        app.router.add_get("/", self.ctx.gateway.handle)
        app.router.add_get("/resume", self.ctx.gateway.handle)
        return app

    async def start(self) -> Self:
        runner = web.AppRunner(self._build_app(), handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self._requested_port)
        await site.start()
        self._runner = runner
        self.port = runner.addresses[0][1]
        self.ctx.base_url = f"http://{self.host}:{self.port}"
        return self

    async def stop(self) -> None:
        if self._runner is None:
            return
        await self.ctx.gateway.close_all()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- addresses & pointing discord.py at us ----------------------------
    @property
    def base_url(self) -> str:
        return self.ctx.base_url

    @property
    def api_url(self) -> str:
        return self.ctx.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return self.ctx.base_url.replace("http://", "ws://", 1) + "/"

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Points discord.py's REST base and default gateway at this emulator."""
        import discord.gateway
        import discord.http
        import yarl

        old = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old

    # -- identity --------------------------------------------------------
    @property
    def token(self) -> str:
        return self.ctx.config.token

    @property
    def bot_user(self) -> User:
        return self.ctx.bot

    @property
    def application_id(self) -> int:
        return self.ctx.application.id

    @property
    def clock(self) -> Any:
        """The emulator clock; ``emu.clock.advance(4)`` expires interaction deadlines."""
        return self.ctx.clock

    @property
    def ratelimits(self) -> Any:
        """The :class:`~.ratelimit.RateLimiter` (``configure``, ``exhaust``, ``global_limit``)."""
        return self.ctx.limiter

    def inject_failures(self, route: str, status: int = 502, count: int = 1) -> None:
        """The next ``count`` requests on ``route`` (``"*"`` = any) get HTTP ``status``."""
        self.ctx.limiter.inject_failures(route, status, count)

    def registered_commands(self, guild: Any = None) -> list[dict[str, Any]]:
        guild_id = getattr(guild, "id", guild)
        return self.ctx.commands.listing(guild_id)

    # -- recording -------------------------------------------------------
    @property
    def messages(self) -> list[Message]:
        return list(self.ctx.recorder.messages)

    @property
    def requests(self) -> list[RequestRecord]:
        return list(self.ctx.recorder.requests)

    @property
    def server_errors(self) -> list[BaseException]:
        """Exceptions raised inside emulator handlers; should stay empty."""
        return list(self.ctx.recorder.server_errors)

    @property
    def interactions(self) -> list[InteractionResult]:
        return [InteractionResult(r, self.ctx) for r in self.ctx.interactions.records.values()]

    def channel_messages(
        self, channel: Any, *, include_ephemeral: bool = True, include_deleted: bool = False
    ) -> list[Message]:
        return self.ctx.recorder.channel_messages(
            getattr(channel, "id", channel),
            include_ephemeral=include_ephemeral,
            include_deleted=include_deleted,
        )

    def dms(self, user: Any) -> list[Message]:
        return self.ctx.recorder.dms(getattr(user, "id", user))

    def ephemerals_for(self, user: Any) -> list[Message]:
        """Ephemeral messages shown only to ``user``."""
        return self.ctx.recorder.visible_to(getattr(user, "id", user))

    def requests_for(self, route: str, *, status: int | None = None) -> list[RequestRecord]:
        return self.ctx.recorder.requests_for(route, status=status)

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] = lambda m: True,
        timeout: float = 5.0,
        **kwargs: Any,
    ) -> Message:
        return await self.ctx.recorder.wait_for_message(predicate, timeout, **kwargs)

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 5.0,
        what: str = "condition",
        *,
        poll: float | None = 0.05,
    ) -> T:
        """Waits until ``predicate()`` is truthy and returns its value.

        Re-checked on every emulator event; ``poll`` (seconds, ``None`` to
        disable) also re-checks periodically, for predicates over bot-side
        state such as ``bot.get_channel(...)`` that the emulator cannot observe.
        """
        return await self.ctx.notifier.wait_for(predicate, timeout, what=what, poll=poll)

    # -- gateway controls ------------------------------------------------
    @property
    def connections(self) -> list[ConnectionInfo]:
        return list(self.ctx.gateway.connections)

    async def wait_until_connected(self, timeout: float = 5.0) -> None:
        """Waits until a bot session has identified (READY sent)."""
        await self.wait_for(
            lambda: any(c.identified for c in self.ctx.gateway.connections), timeout, "IDENTIFY"
        )

    async def drop_connection(self, code: int = 4000, *, abrupt: bool = False) -> int:
        """Closes the bot's websocket(s); sessions stay resumable and buffer events."""
        return await self.ctx.gateway.drop_connections(code, abrupt=abrupt)

    async def wait_for_resume(self, count: int = 1, timeout: float = 10.0) -> ConnectionInfo:
        """Waits until ``count`` connections in total have RESUMEd; returns the latest."""

        def resumed() -> ConnectionInfo | None:
            done = [c for c in self.ctx.gateway.connections if c.resumed]
            return done[-1] if len(done) >= count else None

        return await self.wait_for(resumed, timeout, "a RESUME")

    def request_reconnect(self) -> None:
        self.ctx.gateway.request_reconnect()

    def invalidate_session(self, resumable: bool = False) -> None:
        self.ctx.gateway.invalidate_sessions(resumable)
