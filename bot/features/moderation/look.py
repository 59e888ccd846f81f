"""The settings lines that say more than one setting's value: the phases' lengths, the
deadline hours, the reminder (with its warning), the absence policy and the AI's seats. The one-value lines
are made by the settings' declaration (``game_settings``)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core.time_zones import NIGHT, local, next_at_hour
from bot.core.types import GameInfo, GameSettings
from bot.discord.durations import format_duration
from bot.features.ai_seats.ai_seats import AI_MARK
from bot.i18n import t
from bot.render import words


def durations_line(s: GameSettings, locale: str) -> str:
    """The three phases' lengths, in one line."""
    return t(
        "reply.settings.durations",
        locale,
        day=format_duration(s.day_seconds, locale),
        dusk=format_duration(s.dusk_seconds, locale),
        morning=format_duration(s.morning_seconds, locale),
    )


def deadline_hours_line(s: GameSettings, locale: str, now: datetime | None = None) -> str | None:
    """The deadline hours, in the zone they were typed in and, through Discord's
    timestamps, in each reader's own clock (the next time at each); None without any."""
    if not s.deadline_hours:
        return None
    when = now or datetime.now(UTC)
    hours = words.listing([f"{h:02d}:00" for h in s.deadline_hours], locale)
    yours = words.listing([f"<t:{int(next_at_hour(when, h, s.deadline_zone).timestamp())}:t>" for h in s.deadline_hours], locale)
    return t("reply.settings.deadline_hours", locale, hours=hours, zone=s.deadline_zone, yours=yours, min=12)


def clock_line(name: str, zone: str, s: GameSettings, locale: str, now: datetime | None = None) -> str:
    """What the deadline hours are on one player's clock (a night hour marked 🌙)."""
    when = now or datetime.now(UTC)
    times = []
    for h in s.deadline_hours:
        there = local(next_at_hour(when, h, s.deadline_zone), zone)
        times.append(f"{there:%H:%M}{' 🌙' if there.hour in NIGHT else ''}")
    return t("reply.settings.clock_line", locale, name=words.player_name(name), zone=zone, times=" · ".join(times))


def reminder_text(s: GameSettings, locale: str) -> str:
    """The reminder's lead, with a warning when some phase is too short to get one (the
    reminder would fall before the phase opens)."""
    lead = format_duration(s.reminder_lead_seconds, locale)
    if s.reminder_lead_seconds >= min(s.day_seconds, s.dusk_seconds, s.morning_seconds):
        return t("reply.settings.reminder_too_long", locale, value=lead)
    return lead


def reminder_line(s: GameSettings, locale: str) -> str:
    value = reminder_text(s, locale) if s.reminder_lead_seconds else t("reply.no", locale)
    return t("reply.settings.reminder", locale, value=value)


def policy_text(s: GameSettings, locale: str) -> str:
    """The absence policy's settings line: when it acts, what it does, a standby's time."""
    if not s.absence_misses:
        return t("absence.setting", locale, value=t("absence.setting_off", locale))
    action = t(f"cmd.choice.absence_{s.absence_action}", locale)
    offer = format_duration(s.offer_seconds, locale)
    return t("absence.setting", locale, value=t("absence.setting_on", locale, count=s.absence_misses, action=action, offer=offer))


def ai_count(info: GameInfo) -> int:
    """How many of the table's (or the lobby's) seats the AI holds."""
    return sum(1 for p in info.players if not p.user_id and p.name.startswith(AI_MARK))


def ai_line(s: GameSettings, count: int, locale: str) -> str | None:
    """The AI seats and, when the AI fills the table, to how many players; None when the
    game has neither."""
    if s.fill_to:
        return t("reply.settings.ai_fill", locale, value=count, fill=s.fill_to)
    if s.ai_seats or count:
        return t("reply.settings.ai_seats", locale, value=count)
    return None
