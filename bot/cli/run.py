"""``wolfhowl run``: start the bot against Discord (or, with ``api_base`` and
``gateway_url`` set, against the local emulator).

Settings come from ``config.toml`` (``--config`` or ``WOLFHOWL_CONFIG`` to name another
file), overridden by ``WOLFHOWL_*`` environment variables; the token from
``WOLFHOWL_TOKEN`` or the file. The token is never printed or logged.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot import event_loop
from bot.config import ConfigError
from bot.discord.config import config_for_command
from bot.discord.endpoints import point_discord_to
from bot.log_context import JsonFormatter

if TYPE_CHECKING:
    from bot.discord.client import WolfBot


class RedactToken(logging.Filter):
    """Belt and braces: no log line may ever carry the token."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token and self.token in record.getMessage():
            record.msg = record.getMessage().replace(self.token, "[token]")
            record.args = ()
        return True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="settings file (default: config.toml or $WOLFHOWL_CONFIG)")
    parser.add_argument("--no-sync", action="store_true", help="do not register the slash commands at start-up")
    parser.add_argument("--no-migrate", action="store_true", help="do not run the database migrations at start-up")
    parser.add_argument("--log-level", metavar="LEVEL", help="DEBUG, INFO, WARNING, ERROR or CRITICAL (default from the settings)")


def configure_logging(level: str, token: str, log_format: str = "text") -> None:
    """The log on stderr: text lines, or with ``log_format`` "json" one JSON object a
    line (time, level, logger, message, and the game, shard and interaction where there
    is one: ``bot.log_context``)."""
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(RedactToken(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(max(logging.getLevelName(level), logging.INFO))
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)


async def serve(bot: WolfBot, token: str) -> None:
    """Run until the connection ends or a stop signal arrives. SIGTERM (``docker stop``,
    systemd, Kubernetes) and SIGINT (Ctrl-C) both close the bot cleanly: background tasks
    stopped, the gateway closed, the database disposed; a phase advance or a delivery in
    flight is one transaction, so a harder stop loses nothing either."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    running: list[asyncio.Task[None]] = []

    async def close() -> None:
        await bot.close()
        # Once closed, discord.py still sleeps out a reconnect back-off (Discord or the
        # network down; up to 17 minutes) before it returns: cut that wait short.
        for task in running:
            task.cancel()

    def stop(signame: str) -> None:
        logging.getLogger("wolfhowl").info("%s received: closing", signame)
        if not closing:
            closing.append(loop.create_task(close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # Windows has no add_signal_handler
            loop.add_signal_handler(sig, stop, sig.name)
    try:
        async with bot:
            running.append(loop.create_task(bot.start(token)))
            await running[0]
    except (Exception, asyncio.CancelledError):
        current = asyncio.current_task()
        if not closing or (current is not None and current.cancelling()):
            raise
        # Stopped while not connected (Discord slow to answer the login, or a reconnect
        # pending): what failed was the request or the wait the stop cut short.
        logging.getLogger("wolfhowl").info("stopped while not connected to Discord")
    for task in closing:
        await task


def _stop_starting(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    """Start the bot. Until :func:`serve` installs its own handlers, SIGTERM stops the
    start-up as Ctrl-C does: as PID 1 (the Docker image runs ``wolfhowl run`` directly) a
    signal without a handler would be ignored and ``docker stop`` would wait to kill."""
    signal.signal(signal.SIGTERM, _stop_starting)
    try:
        return _start(args)
    except KeyboardInterrupt:
        print("wolfhowl run: stopped while starting", file=sys.stderr)
        return 0


def _start(args: argparse.Namespace) -> int:
    """Read the configuration, then start the bot. The client (and with it discord.py,
    every command and the database layer) is imported here, once the configuration has
    been read: ``wolfhowl run`` with a bad configuration or no token answers without
    loading them."""
    overrides: dict[str, object] = {}
    if args.no_sync:
        overrides["sync_commands"] = False
    if args.no_migrate:
        overrides["migrate_on_start"] = False
    if args.log_level:
        overrides["log_level"] = args.log_level
    try:
        config = config_for_command(args.config, **overrides)
    except ConfigError as exc:
        print(f"wolfhowl run: {exc}", file=sys.stderr)
        return 2
    if not config.token:
        print("wolfhowl run: no bot token; set WOLFHOWL_TOKEN or `token` in config.toml", file=sys.stderr)
        return 2
    configure_logging(config.log_level, config.token, config.log_format)
    point_discord_to(config.api_base, config.gateway_url)

    import aiohttp
    import discord
    from sqlalchemy.exc import SQLAlchemyError

    from bot.db.where import problem
    from bot.discord.client import WolfBot

    log = logging.getLogger("wolfhowl")
    try:
        bot = WolfBot(config)
        event_loop.run(serve(bot, config.token), config.event_loop)
    except event_loop.EventLoopUnavailable as exc:
        log.error("%s", exc)
        return 2
    except discord.LoginFailure:
        log.error("Discord refused the token (check WOLFHOWL_TOKEN)")
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused the intents")
        return 1
    except (SQLAlchemyError, ValueError) as exc:
        # A database URL that does not parse or names no supported database, a SQLite
        # folder that is not there, a server that refuses the connection (check_database
        # words it as DatabaseProblem): the operator's to fix, said in one line.
        log.error("%s", problem(config.database_url, exc))
        return 1
    except (OSError, aiohttp.ClientError) as exc:
        log.error("cannot connect: %s", exc)
        return 1
    return 0
