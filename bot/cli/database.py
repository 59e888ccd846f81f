"""The options that name the database a command works on (``wolfhowl db``, ``health``,
``games``, ``export``): ``--url``, else ``database_url`` from the settings (``--config
FILE``, ``WOLFHOWL_CONFIG``, ``./config.toml`` and the ``WOLFHOWL_*`` variables), read
and checked as ``wolfhowl run`` reads them."""

from __future__ import annotations

import argparse
import sys

from bot.config import ConfigError
from bot.discord.config import config_for_command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="settings file (default: config.toml or $WOLFHOWL_CONFIG)")
    parser.add_argument("--url", help="database URL (default: database_url from the settings)")


def configured_url(args: argparse.Namespace) -> str:
    """``--url``, else the settings' ``database_url`` (ConfigError when they cannot be read)."""
    if args.url:
        return str(args.url)
    return config_for_command(args.config).database_url


def url_or_say_why(args: argparse.Namespace, command: str) -> str | None:
    """:func:`configured_url`, or None having said on standard error why the settings
    cannot be read (``wolfhowl COMMAND: ...``; the command then exits 2)."""
    try:
        return configured_url(args)
    except ConfigError as exc:
        print(f"wolfhowl {command}: {exc}", file=sys.stderr)
        return None
