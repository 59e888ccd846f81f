"""Moderator commands of ``/mod``: create (with the few settings a lobby opens with),
start, settings (every setting) and house_rules, replace, kick, end (after a confirmation), status and the log (the clock's
are ``/phase``'s; the seasons' ``/mod season``).

Each is parse → ``service.moderate`` → render: the command is one of
``bot.features.moderation.commands``, and the service checks the moderator (Manage Server,
or the configured moderator role, or the game's creator) from what Discord says of the
caller (``checks.moderator_standing``). Discord lists ``/mod`` only to members with
Manage Server unless a server admin opens it to others (and always in DMs), so the check
is made each time."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.time_zones import table_clocks, time_zone_of
from bot.core.types import GameInfo, GameSettings
from bot.core.views import game_info
from bot.discord.context import Ctx, server_language, user_ref
from bot.discord.errors import ReplyError
from bot.discord.groups import command
from bot.discord.guild import permissions
from bot.discord.guild.quiet_dead import quiet_dead_on, recorded_room, sync_quiet_dead
from bot.discord.guild.quiet_notes import report_note, switch_quiet_dead, with_note
from bot.discord.guild.standing import standing_of
from bot.discord.players import player_choices
from bot.discord.translator import L
from bot.features.lobby.components import close_lobby, refresh_lobby
from bot.features.lobby.games import latest_game_in_channel
from bot.features.moderation.cog_settings import (
    CREATE,
    HOUSE_RULES,
    option_value,
    overrides,
    setting_options,
)
from bot.features.moderation.commands import (
    AskToEnd,
    ChangeSettings,
    CreateGame,
    ExportLog,
    KickPlayer,
    OfferSeat,
    ReplacePlayer,
    SeatChanged,
    ShowStatus,
    StartGame,
)
from bot.features.moderation.components import ConfirmButton, confirm_key
from bot.features.moderation.look import absence_fields, clock_line, status_embed
from bot.features.moderation.look_settings import settings_embed
from bot.features.replay.export import log_bytes
from bot.i18n import t
from bot.render import words
from bot.render.fields import add_lines
from bot.render.replies import notice_embed


async def _kick_from_lobby(ctx: Ctx, kicked: SeatChanged) -> None:
    """Before the start the player leaves the lobby, is told by DM, and may not join it
    again: the lobby post shows it."""
    info = kicked.game
    channel = ctx.bot.messageable(info.channel_id, info.guild_id)
    if channel is not None:
        await refresh_lobby(ctx.bot, channel, info.id)
    await ctx.send(embed=notice_embed(t("reply.kicked", ctx.locale, player=words.player_name(kicked.player.name))))


class GameAdmin(commands.Cog):
    """A moderator's game: ``/mod create|start|settings|house_rules|replace|kick|end|status|log``."""

    position = 30  # where a shared group lists its commands (bot.discord.features)

    @command("mod", "create")
    @setting_options(CREATE)
    async def create(self, interaction: discord.Interaction, **given: Any) -> None:
        ctx = await Ctx.begin(interaction)
        channel = interaction.channel
        if interaction.guild is None or not isinstance(channel, discord.TextChannel):
            raise ReplyError("reply.error.create_where")
        basic_missing, _ = permissions.bot_missing(channel)
        if basic_missing:
            raise ReplyError("reply.error.bot_missing", permissions=permissions.permission_names(basic_missing, ctx.locale))
        fields = await _with_zone(ctx, overrides(**given))
        if given.get("language") is None:
            fields["language"] = server_language(interaction, ctx.bot.config.language)
        settings = GameSettings.from_config(ctx.bot.config, **fields)
        starts = option_value("start_in", given.get("start_in")) or 0
        info = await ctx.moderate(CreateGame(interaction.guild.id, channel.id, ctx.user, settings, starts))
        quiet_dead = given.get("quiet_dead")
        want_quiet = ctx.bot.config.quiet_dead if quiet_dead is None else quiet_dead
        note, quiet = await switch_quiet_dead(ctx.bot, info, channel, want_quiet, ctx.locale)
        reply = settings_embed(info, ctx.locale, quiet)
        reply.title = t("reply.created", ctx.locale, game=info.id)
        # /mod create offers only the opening settings: the reply says where the rest are.
        reply.description = f"{reply.description}\n\n{t('reply.created_more', ctx.locale)}"
        await _add_clocks(ctx, info, reply)
        if note:
            reply.add_field(name=t("reply.quiet_dead.title", ctx.locale), value=note[:1024], inline=False)
        await ctx.send(embed=reply)

    @command("mod", "start")
    async def start(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        info = await ctx.moderate(StartGame())
        await close_lobby(ctx.bot, info)
        await ctx.send(embed=notice_embed(t("reply.started", ctx.locale, game=info.id, count=len(info.players))))

    @command("mod", "house_rules")
    @setting_options(HOUSE_RULES)
    async def house_rules(self, interaction: discord.Interaction, **given: Any) -> None:
        """The house rules of a game in its lobby: ``/mod settings``' road, with the
        options that change the rules of play beside the original's."""
        await _change_settings(interaction, given)

    @command("mod", "settings")
    @setting_options()
    async def settings(self, interaction: discord.Interaction, **given: Any) -> None:
        await _change_settings(interaction, given)

    @command("mod", "replace")
    @app_commands.rename(player=L("cmd.name.player"), newcomer=L("cmd.name.newcomer"))
    @app_commands.describe(player=L("cmd.param.player_replace"), newcomer=L("cmd.param.newcomer"))
    async def replace(self, interaction: discord.Interaction, player: str, newcomer: discord.User | None = None) -> None:
        ctx = await Ctx.begin(interaction)
        if newcomer is None:  # the seat goes to the standby list
            offered = await ctx.moderate(OfferSeat(player))
            text = t("absence.offered", ctx.locale, seat=offered.player.seat, name=words.player_name(offered.asked))
            await ctx.send(embed=notice_embed(text))
            return
        if newcomer.bot:
            raise ReplyError("reply.error.newcomer_bot")
        # What Discord says of the newcomer in the game's server (the game looked up first).
        info = await game_info(ctx.db, ctx.place, moderating=True, caller=ctx.caller)
        standing = await standing_of(ctx.bot, newcomer, info.guild_id, info.channel_id)
        replaced = await ctx.moderate(ReplacePlayer(player, user_ref(newcomer, None), standing, game_id=info.id))
        await ctx.send(embed=notice_embed(t("reply.replaced", ctx.locale, seat=replaced.seat, user=newcomer.mention)))

    @command("mod", "kick")
    @app_commands.rename(player=L("cmd.name.player"))
    @app_commands.describe(player=L("cmd.param.player_kick"))
    async def kick(self, interaction: discord.Interaction, player: str) -> None:
        ctx = await Ctx.begin(interaction)
        removed = await ctx.moderate(KickPlayer(player))
        if removed.game.status == "lobby":
            await _kick_from_lobby(ctx, removed)
            return
        note = report_note(await sync_quiet_dead(ctx.bot, removed.game), ctx.locale)  # the one removed, muted
        target = removed.player
        text = t("reply.kicked", ctx.locale, player=words.seat_name(target.seat or 0, words.player_name(target.name)))
        await ctx.send(embed=notice_embed(with_note(text, note)))

    @replace.autocomplete("player")
    @kick.autocomplete("player")
    async def _players(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        info = await interaction.client.tables.get(interaction.client, interaction, moderating=True)  # type: ignore[attr-defined]
        return [] if info is None else player_choices(current, info.players, lobby=info.status == "lobby")

    @command("mod", "end")
    async def end(self, interaction: discord.Interaction) -> None:
        # A running or paused game ends scored; a lobby is cancelled. The button carries
        # which of the two was confirmed, and does only that.
        ctx = await Ctx.begin(interaction)
        confirmed = await ctx.moderate(AskToEnd())
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmButton(confirmed, ctx.locale))
        text = t(confirm_key(confirmed), ctx.locale, game=confirmed.game_id)
        await ctx.send(embed=notice_embed(text, colour=0xB45309), view=view)

    @command("mod", "status")
    async def status(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        st = await ctx.moderate(ShowStatus(interaction.user.id))
        # A moderator who holds or held a seat, even a dead, replaced or removed one (they
        # know its class and faction, which can still win), sees only the count.
        embed = status_embed(st.game, st.sent, st.done, ctx.locale, per_seat=not st.viewer_played)
        await ctx.send(embed=absence_fields(embed, st, ctx.locale))

    @command("mod", "log")
    @app_commands.rename(game_id=L("cmd.name.game_id"))
    @app_commands.describe(game_id=L("cmd.param.game_id"))
    async def log(self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1] | None = None) -> None:
        ctx = await Ctx.begin(interaction)
        if game_id is None and interaction.guild_id is not None and interaction.channel_id is not None:
            found = await latest_game_in_channel(ctx.db, interaction.channel_id, finished_first=True)
            if found is None:
                raise ReplyError("reply.error.no_game_here")
            game_id = found.id
        elif game_id is None:
            raise ReplyError("reply.error.log_which")
        data = await ctx.moderate(ExportLog(game_id=game_id))
        file = discord.File(io.BytesIO(log_bytes(data)), filename=f"wolfhowl-game-{game_id}.json")
        await ctx.send(embed=notice_embed(t("reply.log", ctx.locale, game=game_id)), file=file)


async def _change_settings(interaction: discord.Interaction, given: dict[str, Any]) -> None:
    """``/mod settings`` and ``/mod house_rules``: the lobby's settings changed, its post
    refreshed, the settings shown."""
    ctx = await Ctx.begin(interaction)
    fields = await _with_zone(ctx, overrides(**given))
    starts = option_value("start_in", given.get("start_in"))
    quiet_dead = given.get("quiet_dead")
    info = await ctx.moderate(ChangeSettings(fields, starts))
    note = None
    guild = ctx.bot.get_guild(info.guild_id) if info.guild_id is not None else None
    channel = guild.get_channel(info.channel_id) if guild else None
    quiet = quiet_dead_on(channel, await recorded_room(ctx.bot, channel.id)) if isinstance(channel, discord.TextChannel) else None
    if quiet_dead is not None and channel is not None:
        note, quiet = await switch_quiet_dead(ctx.bot, info, channel, quiet_dead, ctx.locale)
        if note and fields and quiet is not quiet_dead:  # say plainly what did change
            note = words.sentences((note, t("reply.quiet_dead.others_saved", ctx.locale)), ctx.locale)
    if info.status == "lobby" and isinstance(channel, discord.abc.Messageable):
        await refresh_lobby(ctx.bot, channel, info.id)  # the lobby post shows the settings
    reply = settings_embed(info, ctx.locale, quiet)
    if note:
        reply.add_field(name=t("reply.quiet_dead.title", ctx.locale), value=note[:1024], inline=False)
    await _add_clocks(ctx, info, reply)
    await ctx.send(embed=reply)


async def _with_zone(ctx: Ctx, fields: dict[str, Any]) -> dict[str, Any]:
    """Deadline hours are typed on the moderator's own clock: their time zone goes with
    them (UTC when they have set none)."""
    if fields.get("deadline_hours"):
        fields["deadline_zone"] = await time_zone_of(ctx.db, ctx.user.id) or "UTC"
    return fields


async def _add_clocks(ctx: Ctx, info: GameInfo, reply: discord.Embed) -> None:
    """With deadline hours, what they are on each player's clock (those who set a zone),
    so that the moderator can choose hours that spare everyone's nights."""
    if not info.settings.deadline_hours:
        return
    names = {p.user_id: p.name for p in info.players if p.user_id}
    zones = await table_clocks(ctx.db, list(names))
    lines = [clock_line(names[u], zone, info.settings, ctx.locale) for u, zone in zones.items()]
    unset = len(names) - len(lines)
    if unset:
        lines.append(t("reply.settings.clocks_unset", ctx.locale, count=unset))
    add_lines(reply, t("reply.settings.clocks_title", ctx.locale), lines)
