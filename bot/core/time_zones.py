"""Time zones: a player's own (``/settings timezone``), and a slow game's deadline hours.

A player may set their IANA time zone (``Europe/Berlin``, ``Asia/Shanghai``). Discord
already shows every deadline timestamp in the reader's own clock; the zone lets the bot
say it in words where that helps (a phase prompt: "18:00 your time"), and lets a
moderator see, before choosing a slow game's deadline hours, what each hour is for each
player at the table.

**Deadline hours** (``GameSettings.deadline_hours``, typed in the moderator's zone and
kept with it, ``deadline_zone``): a game played at one phase a day, as the forum played
it, closes each phase at a fixed hour of the day instead of after a length; with several
hours the hour rotates by round (round 1 the first, round 2 the second, …), so that no
player always meets the deadline in the middle of their night. A phase opened at ``t``
in round ``r`` closes at the first time at hour ``hours[(r - 1) % n]`` (minute 0, in the
zone: summer time is followed) at least ``MIN_PHASE`` after ``t``. Nothing of the game's
rules changes, nor the line-up's odds: only when each phase closes. A phase that closes
early (everyone has sent) opens the next at once, whose deadline is then the same rule's.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta
from functools import cache
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.errors import BadArgumentError
from bot.core.types import UserRef, check_id
from bot.db import repositories as repo
from bot.db.repos import users as users_repo
from bot.db.session import Database

MIN_PHASE = timedelta(hours=12)  # the shortest a phase with deadline hours lasts
MAX_HOURS = 6  # deadline hours a game may rotate through
NIGHT = range(0, 7)  # hours of a player's night (a deadline then is marked)


class UnknownTimeZoneError(BadArgumentError):
    key = "error.unknown_time_zone"


@cache
def zones() -> tuple[str, ...]:
    """Every IANA zone name this machine knows (from tzdata where the system has none)."""
    return tuple(sorted(z for z in zoneinfo.available_timezones() if "/" in z or z == "UTC"))


def check_zone(name: Any) -> str:
    """``name`` as the zone's own spelling (case aside), or UnknownTimeZoneError."""
    if isinstance(name, str):
        typed = name.strip()
        found = next((z for z in zones() if z.casefold() == typed.casefold()), None)
        if found is not None:
            return found
    raise UnknownTimeZoneError(zone=str(name)[:60])


def zones_matching(typed: str, limit: int = 25) -> list[str]:
    """Zone names for what is typed (a city, a region, part of either), the closest first."""
    text = typed.strip().casefold().replace(" ", "_")
    if not text:
        return ["UTC", "Asia/Shanghai", "Asia/Taipei", "Europe/London", "America/New_York"][:limit]
    starts = [z for z in zones() if z.casefold().split("/")[-1].startswith(text) or z.casefold().startswith(text)]
    within = [z for z in zones() if text in z.casefold() and z not in starts]
    return (starts + within)[:limit]


def local(when: datetime, zone: str) -> datetime:
    return when.astimezone(zoneinfo.ZoneInfo(zone))


def utc_offset(zone: str, when: datetime) -> str:
    """"UTC+08:00" for ``zone`` at ``when``."""
    offset = local(when, zone).utcoffset() or timedelta(0)
    sign = "-" if offset < timedelta(0) else "+"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def next_at_hour(after: datetime, hour: int, zone: str) -> datetime:
    """The first time at ``hour``:00 on the wall clocks of ``zone`` at or after ``after``
    (in UTC). An hour that a summer-time change skips that day is read as zoneinfo reads
    it (the clock's hour before the change, which is the instant an hour later)."""
    tz = zoneinfo.ZoneInfo(zone)
    here = after.astimezone(tz)
    for days in range(3):
        at = datetime.combine(here.date() + timedelta(days=days), time(hour), tzinfo=tz)
        if at.astimezone(UTC) >= after.astimezone(UTC):
            return at.astimezone(UTC)
    raise AssertionError("an hour of the day comes within three days")


def rotated_deadline(opened: datetime, round_no: int, hours: tuple[int, ...], zone: str) -> datetime:
    """When a phase opened at ``opened`` in round ``round_no`` closes under the deadline
    hours ``hours`` of ``zone`` (see the module docstring)."""
    hour = hours[(max(1, round_no) - 1) % len(hours)]
    return next_at_hour(opened + MIN_PHASE, hour, zone)


async def set_time_zone(db: Database, user: UserRef, zone: str | None) -> str | None:
    """Set (a zone name, checked) or clear (None) the user's own time zone; returns it."""
    user = user.checked()
    chosen = None if zone is None else check_zone(zone)
    async with db.transaction() as s:
        await repo.upsert_user(s, user.id, user.name, user.locale, db.now())
        await users_repo.set_time_zone(s, user.id, chosen)
    return chosen


async def time_zone_of(db: Database, user_id: int) -> str | None:
    check_id(user_id, "user")
    async with db.read() as s:
        return await users_repo.time_zone(s, user_id)


async def time_zones_of(s: AsyncSession, user_ids: list[int]) -> dict[int, str]:
    """The users' own time zones, for those who set one."""
    if not user_ids:
        return {}
    return await users_repo.time_zones(s, user_ids)


async def table_clocks(db: Database, user_ids: list[int]) -> dict[int, str]:
    """:func:`time_zones_of` in its own read (the moderator's view of a lobby)."""
    async with db.read() as s:
        return await time_zones_of(s, user_ids)
