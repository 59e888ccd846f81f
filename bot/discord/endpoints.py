"""Where discord.py sends its traffic: Discord itself, or the local emulator when
``api_base`` and ``gateway_url`` are set (``wolfhowl run``, bench/split_bot.py)."""

from __future__ import annotations


def point_discord_to(api_base: str, gateway_url: str) -> None:
    """Send discord.py's REST and gateway traffic elsewhere (the emulator)."""
    import discord.gateway
    import discord.http
    import yarl

    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
