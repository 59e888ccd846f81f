"""The options that name the database a command works on (``wolfhowl db``, ``health``,
``games``, ``export``): ``--url``, else ``database_url`` from the settings (``--config
FILE``, ``WOLFHOWL_CONFIG``, ``./config.toml`` and the ``WOLFHOWL_*`` variables), read
and checked as ``wolfhowl run`` reads them."""

from __future__ import annotations

import argparse

from bot.discord.config import config_for_command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="settings file (default: config.toml or $WOLFHOWL_CONFIG)")
    parser.add_argument("--url", help="database URL (default: database_url from the settings)")


def configured_url(args: argparse.Namespace) -> str:
    """``--url``, else the settings' ``database_url`` (ConfigError when they cannot be read)."""
    if args.url:
        return str(args.url)
    return config_for_command(args.config).database_url
