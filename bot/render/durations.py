"""A length of time in words: ``1d 2h 30m``, ``1天2小时30分钟`` (what a moderator types
is read by ``bot.discord.durations``)."""

from __future__ import annotations

from bot.i18n import t


def format_duration(seconds: int, locale: str) -> str:
    """``1d 2h 30m`` / ``1天2小时30分钟``; under a minute in seconds."""
    seconds = max(0, int(seconds))
    d, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    parts = []
    for value, key in ((d, "reply.unit.d"), (h, "reply.unit.h"), (m, "reply.unit.m")):
        if value:
            parts.append(t(key, locale, n=value))
    if not parts:
        parts.append(t("reply.unit.s", locale, n=s))
    return t("reply.unit.join", locale).join(parts)
