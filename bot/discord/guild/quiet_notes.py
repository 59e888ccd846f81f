"""Quiet dead as the moderator sees it: switched on (or not) by ``/mod create`` as the
configuration says, on or off with ``/mod settings``, and the notes that say what could not be done and why (a permission
the bot lacks, the server's channel limit, Discord refusing), in a command's reply or, when
no command is being answered, by DM."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.core.types import GameInfo
from bot.discord.guild import quiet_dead
from bot.discord.guild.permissions import MUTE, QUIET, permission_names, quiet_missing
from bot.discord.outbound.moderator_dm import dm_moderator, moderator_locale
from bot.i18n import t
from bot.render import words

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

CHANNEL_LIMIT = 30013  # Discord: "Maximum number of guild channels reached"


def report_note(report: quiet_dead.QuietReport, locale: str) -> str | None:
    """Who could not be muted or given their voice back, why, and what happens next."""
    if not report:
        return None
    if report.missing:
        why = t("reply.quiet_dead.why_missing", locale, permissions=permission_names(report.missing, locale))
    else:
        why = t("reply.quiet_dead.why_refused", locale)
    channel = f"<#{report.channel_id}>"
    notes = []
    if report.not_muted:
        notes.append(t("reply.quiet_dead.not_muted", locale, players=_mentions(report.not_muted, locale), channel=channel, why=why))
    if report.not_freed:
        key = "reply.quiet_dead.not_freed_end" if report.finished else "reply.quiet_dead.not_freed"
        notes.append(t(key, locale, players=_mentions(report.not_freed, locale), channel=channel, why=why))
    return "\n".join(notes)


def _mentions(user_ids: tuple[int, ...], locale: str) -> str:
    return words.listing((f"<@{u}>" for u in user_ids), locale)


def with_note(text: str, note: str | None) -> str:
    """A reply's text with a quiet dead note under it."""
    return text if not note else f"{text}\n\n⚠️ {note}"


async def tell_moderator(bot: WolfBot, info: GameInfo, report: quiet_dead.QuietReport) -> None:
    """A sync no command is waiting for (an announcement's, a restart's): the moderator
    gets a DM when it could not do something they have not been told yet."""
    if not report.news:
        return
    locale = await moderator_locale(bot, info)
    note = report_note(report, locale)
    if note:
        await dm_moderator(bot, info, t("reply.quiet_dead.dm", locale, game=info.id, note=note))


async def switch_quiet_dead(bot: WolfBot, info: GameInfo, channel: discord.abc.GuildChannel, want: bool, locale: str) -> tuple[str | None, bool | None]:
    """Set up (or drop) quiet dead for the game in ``channel``: a note for the moderator
    (where the dead talk, why it cannot be, who could not be muted) and whether the dead
    now stay quiet. Dropping it gives the muted their voice back; setting it up mid-game
    mutes the departed so far. Nothing here raises: a failure is a note."""
    if not isinstance(channel, discord.TextChannel):
        return None, None
    recorded = await quiet_dead.recorded_room(bot, channel.id)
    if not want:
        lacking = quiet_dead.switch_off_missing(channel, recorded)
        if lacking:
            return t("reply.quiet_dead.cannot_off", locale, permissions=permission_names(lacking, locale)), quiet_dead.quiet_dead_on(channel, recorded)
        try:
            report = await quiet_dead.switch_off(bot, info, channel)
        except discord.HTTPException as exc:
            return t("reply.quiet_dead.cannot_off_refused", locale, reason=_reason(exc, locale)), quiet_dead.quiet_dead_on(channel, recorded)
        return report_note(report, locale), False
    has_channel = quiet_dead.find_dead_channel(channel.guild, channel.id, recorded) is not None
    lacking = quiet_missing(channel, MUTE if has_channel else QUIET)
    if lacking:
        on = quiet_dead.quiet_dead_on(channel, recorded)  # on, though its channel was deleted
        key = "reply.quiet_dead.on_missing" if on else "reply.quiet_dead.missing"
        return t(key, locale, permissions=permission_names(lacking, locale)), on
    try:
        dead = await quiet_dead.ensure_dead_channel(bot, channel, info.settings.language)
    except discord.HTTPException as exc:
        return t("reply.quiet_dead.cannot_create", locale, reason=_reason(exc, locale)), quiet_dead.quiet_dead_on(channel, recorded)
    report = await quiet_dead.sync_quiet_dead(bot, info, dead_channel=dead)  # the departed so far, mid-game
    text = t("reply.quiet_dead.on", locale, channel=dead.mention)
    passed_over = quiet_dead.untrusted_rooms(channel.guild, channel.id, dead.id)
    if passed_over:  # a room that claims to be the dead's, by its topic alone
        rooms = words.listing((c.mention for c in passed_over), locale)
        text = words.sentences((text, t("reply.quiet_dead.untrusted", locale, rooms=rooms, count=len(passed_over))), locale)
    return with_note(text, report_note(report, locale)), True


def _reason(exc: discord.HTTPException, locale: str) -> str:
    if exc.code == CHANNEL_LIMIT:
        return t("reply.quiet_dead.channel_limit", locale)
    return t("reply.quiet_dead.refused", locale, error=(exc.text or str(exc.status))[:200])
