"""How a lobby reads: its public post (who has joined, the settings, the start time, the
line-up's odds), updated as players come and go; the reminder of its start time to those
who joined; a player's notice of being taken out of it."""

from __future__ import annotations

import discord

from bot.core.messages import LobbyKicked, LobbyPost, LobbyReminder
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.features.lineup.look import add_lineup_fields
from bot.features.moderation.look import ai_count
from bot.features.moderation.look_settings import settings_lines, start_line
from bot.i18n import t
from bot.render.fields import add_lines
from bot.render.outgoing import NEUTRAL, RENDERERS, Rendered, iso_ts, notice, params_of
from bot.render.posts import PHASE_COLOUR
from bot.render.replies import notice_embed, player_lines


def lobby_embed(info: GameInfo, locale: str) -> discord.Embed:
    """The public lobby post (the game's language), updated as players join."""
    embed = discord.Embed(
        title=t("reply.lobby.title", locale, game=info.id),
        description=t("reply.lobby.body", locale, moderator=f"<@{info.moderator_id}>", min=6, max=info.settings.max_players),
        colour=PHASE_COLOUR["day"],
    )
    add_lines(embed, t("reply.players", locale, count=len(info.players)), player_lines(info), empty=t("reply.lobby.empty", locale))
    embed.add_field(name=t("reply.settings.short", locale), value=settings_lines(info.settings, locale, ai_count(info)), inline=False)
    start = start_line(info, locale)
    if start:
        embed.add_field(name=t("lobby_start.field", locale), value=start, inline=False)
    if info.status == "lobby":
        add_lineup_fields(embed, info.odds, locale)
    if info.status != "lobby":
        embed.set_footer(text=t("reply.lobby.closed", locale))
    else:
        embed.set_footer(text=t("post.seed_sha", locale, sha=info.seed_sha256[:16] + "…"))
    return embed


def _lobby(m: LobbyPost, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """The lobby post as the game stands when it is sent (whoever has joined meanwhile;
    closed if the game has started)."""

    if info is None:
        return Rendered(embeds=[notice_embed(t("event.Unknown", loc, kind="lobby"), NEUTRAL)])
    return Rendered(embeds=[lobby_embed(info, loc)])


def _lobby_kicked(m: LobbyKicked, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    return notice("reply.post.lobby_kicked", {**params_of(m, msg), "game": msg.game_id}, loc)


def _lobby_reminder(m: LobbyReminder, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """To a lobby member: the game they joined starts soon (if enough have joined)."""
    key = "lobby_start.reminder" if m.count >= m.min else "lobby_start.reminder_short"
    text = t(key, loc, game=msg.game_id, channel=m.channel_id, ts=iso_ts(m.start_at), count=m.count, min=m.min)
    return Rendered(embeds=[notice_embed(text, PHASE_COLOUR["day"])])


RENDERERS.add(LobbyPost, _lobby)
RENDERERS.add(LobbyKicked, _lobby_kicked)
RENDERERS.add(LobbyReminder, _lobby_reminder)
