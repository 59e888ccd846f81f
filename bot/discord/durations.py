"""Durations as people type them: ``24h``, ``90m``, ``1h30m``, ``2d``, ``45`` (minutes),
``1.5h``, and in Chinese ``2小时``, ``30分钟``, ``1天`` (a length shown in words is
``bot.render.durations``')."""

from __future__ import annotations

import re

from bot.discord.errors import ReplyError

UNITS = {
    "d": 86400, "day": 86400, "days": 86400, "天": 86400,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "小时": 3600, "时": 3600, "個小時": 3600, "个小时": 3600,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "分钟": 60, "分": 60,
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "秒": 1,
}  # fmt: skip
PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+|[\u4e00-\u9fff]+)?", re.IGNORECASE)


def parse_duration(text: str, *, low: int = 60, high: int = 7 * 86400) -> int:
    """Seconds, or ReplyError("reply.error.duration") naming the accepted range."""
    raw = (text or "").strip().lower().replace(" ", "")
    total = 0.0
    pos = 0
    if raw:
        for m in PART.finditer(raw):
            if m.start() != pos:
                break
            unit = m.group(2) or "m"
            if unit not in UNITS:
                break
            total += float(m.group(1)) * UNITS[unit]
            pos = m.end()
    if not raw or pos != len(raw) or not low <= total <= high:
        raise ReplyError("reply.error.duration", text=(text or "")[:40], low=low // 60, high=high // 3600)
    return int(total)
