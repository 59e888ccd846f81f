"""The lobby post's Join and Leave buttons (custom ids ``wh:join:<game>`` and
``wh:leave:<game>``), the joining and leaving they share with ``/game join`` and
``/game leave``, and the lobby post itself, kept up to date as players come and go."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.core.messages import LobbyPost
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.discord.context import Ctx
from bot.discord.errors import ReplyError, guarded
from bot.discord.payload import NUMBER, Checked
from bot.features.lobby.games import game_in_channel, get_game, join_game, leave_game
from bot.features.lobby.look import lobby_embed
from bot.i18n import t
from bot.render.outgoing import RENDERERS
from bot.render.replies import notice_embed

log = logging.getLogger("wolfhowl.discord.lobby")


class JoinButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:join:(?P<game>{NUMBER})"):
    def __init__(self, game_id: int, locale: str = "en-US") -> None:
        super().__init__(
            discord.ui.Button(label=t("ui.join", locale), emoji="🍺", style=discord.ButtonStyle.success, custom_id=f"wh:join:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: join_flow(interaction, self.game_id))


class LeaveButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:leave:(?P<game>{NUMBER})"):
    def __init__(self, game_id: int, locale: str = "en-US") -> None:
        super().__init__(
            discord.ui.Button(label=t("ui.leave", locale), style=discord.ButtonStyle.secondary, custom_id=f"wh:leave:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> LeaveButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: leave_flow(interaction, self.game_id))


def lobby_view(info: GameInfo) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if info.status == "lobby":
        locale = info.settings.language
        view.add_item(JoinButton(info.id, locale))
        view.add_item(LeaveButton(info.id, locale))
    return view


def is_lobby_post(message: discord.Message, game_id: int) -> bool:
    wanted = f"wh:join:{game_id}"
    for row in message.components:
        for child in getattr(row, "children", []):
            if getattr(child, "custom_id", None) == wanted:
                return True
    return False


def _seen(e: discord.Embed) -> tuple[object, ...]:
    return (e.title, e.description, tuple((f.name, f.value) for f in e.fields), e.footer.text)


def shows(message: discord.Message, embed: discord.Embed, view: discord.ui.View) -> bool:
    """Whether the lobby post already shows ``embed`` and has buttons exactly when ``view``
    has (a refresh that would change nothing is not sent)."""
    return bool(message.embeds) and _seen(message.embeds[0]) == _seen(embed) and bool(message.components) == bool(view.children)


async def refresh_lobby(bot: Any, channel: discord.abc.Messageable, game_id: int, pressed: discord.Message | None = None) -> None:
    """Show the game's current roster on its lobby post: ``pressed`` when a button was
    pressed on it, else the latest lobby post of this game in the channel. A post read
    from the channel is not edited when it already shows the roster; a pressed one always
    is (the press changed the roster, and its copy of the post is as it was at the press,
    perhaps older than another refresh's edit). One game's refreshes go one at a time,
    each showing the game as stored when its turn comes: a refresh begun on an older read
    (the reconciler's, an odds result's) never puts back a roster a later join or leave
    has replaced. Best effort: the roster is also in /mod status, and the reconciler
    refreshes it again after a crash."""
    async with bot.lobby_turns.of(game_id):
        info = await get_game(bot.db, game_id)
        embed, view = lobby_embed(info, info.settings.language), lobby_view(info)
        try:
            message = pressed
            if message is None:
                me = getattr(getattr(channel, "guild", None), "me", None)
                async for m in channel.history(limit=50):
                    if (me is None or m.author.id == me.id) and is_lobby_post(m, info.id):
                        message = m
                        break
            if message is not None and (message is pressed or not shows(message, embed, view)):
                await message.edit(embed=embed, view=view)
        except discord.HTTPException:
            log.info("could not refresh the lobby post of game %s", info.id, exc_info=True)


async def close_lobby_post(bot: Any, game_id: int) -> None:
    """The lobby post of a game started or cancelled at its start time (no command to
    answer): its buttons go."""
    await close_lobby(bot, await get_game(bot.db, game_id))


async def close_lobby(bot: Any, info: GameInfo) -> None:
    """The lobby post loses its buttons once the game has started or ended."""
    channel = bot.messageable(info.channel_id, info.guild_id)
    if isinstance(channel, discord.abc.Messageable):
        await refresh_lobby(bot, channel, info.id)


ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [JoinButton, LeaveButton]


async def _lobby_here(ctx: Ctx) -> int:
    """/game join names no game: it is the one of the channel it is used in."""
    interaction = ctx.interaction
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ReplyError("reply.error.join_where")
    info = await game_in_channel(ctx.db, interaction.channel_id)
    if info is None:
        raise ReplyError("reply.error.no_game_here")
    return info.id


async def join_flow(interaction: discord.Interaction, game_id: int | None) -> None:
    ctx = await Ctx.begin(interaction)
    if game_id is None:
        game_id = await _lobby_here(ctx)
    game = await get_game(ctx.db, game_id)
    info = await join_game(ctx.db, game.id, ctx.user, await ctx.standing(game))
    await _refresh(ctx, info)
    await ctx.send(
        embed=notice_embed(t("reply.joined", ctx.locale, game=info.id, count=len(info.players), max=info.settings.max_players))
    )


async def leave_flow(interaction: discord.Interaction, game_id: int | None) -> None:
    ctx = await Ctx.begin(interaction)
    if game_id is None:
        game_id = (await ctx.game()).id
    info = await leave_game(ctx.db, game_id, interaction.user.id)
    await _refresh(ctx, info)
    await ctx.send(embed=notice_embed(t("reply.left", ctx.locale, game=info.id)))


async def _refresh(ctx: Ctx, info: GameInfo) -> None:
    """Show the new roster on the game's lobby post, in the game's own channel: the
    message whose button was pressed only when it is that post (a button's id names a
    game, not the message it sits on)."""
    interaction = ctx.interaction
    channel = interaction.channel if interaction.channel_id == info.channel_id else ctx.bot.messageable(info.channel_id, info.guild_id)
    if not isinstance(channel, discord.abc.Messageable):
        return
    message = interaction.message if interaction.type is discord.InteractionType.component else None
    pressed = message if message is not None and message.channel.id == info.channel_id and is_lobby_post(message, info.id) else None
    await refresh_lobby(ctx.bot, channel, info.id, pressed)


def _lobby_controls(m: LobbyPost, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> discord.ui.View | None:
    return lobby_view(info) if info is not None else None


RENDERERS.add_controls(LobbyPost, _lobby_controls)
