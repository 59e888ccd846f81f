"""What players send: ``/grail``, ``/identify``, ``/act attack``, ``/act skill``,
``/vote``, and ``/orders`` to see, change or clear it (with the order panel).

Each handler that sends something makes a command of ``bot.features.play.commands`` of what
was typed; the service resolves it (players, skills, guesses) against the caller's own
view inside the unit of work that stores the submission, and the handler shows the
receipt; the engine decides what is allowed."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.core.types import PlayerView, Receipt
from bot.discord.context import Ctx, locale_of
from bot.discord.groups import command, top_level
from bot.discord.players import player_choices
from bot.discord.translator import L
from bot.features.play import cog_submit as submit
from bot.features.play.cog_choices import guess_choices, may_flip, skill_choices
from bot.features.play.commands import (
    ActSkill,
    AddAction,
    AddGuess,
    SendGrail,
    SendSubmission,
    SendVote,
)
from bot.features.play.components import panel_view, show_panel
from bot.features.play.look import receipt_embed, sent_embed
from bot.i18n import t
from bot.render.replies import names_of, notice_embed

# Withdrawing deletes what was sent (it no longer counts as sent); "nothing tonight"
# sends empty orders, which count as sent: the way to pass, even wounded.
CLEAR_CHOICES = [
    app_commands.Choice(name=L("cmd.choice.clear_orders"), value="orders"),
    app_commands.Choice(name=L("cmd.choice.clear_identify"), value="identify"),
    app_commands.Choice(name=L("cmd.choice.pass_night"), value="pass"),
]


async def _view(ctx: Ctx) -> PlayerView:
    return await ctx.view()


def _here(interaction: discord.Interaction) -> int | None:
    """The channel a command names its game by: a server channel's; None in a DM."""
    return interaction.channel_id if interaction.guild_id is not None else None


async def _send(ctx: Ctx, command: Any) -> None:
    """Send ``command`` (``service.handle``: resolved against the caller's view and
    stored in one unit of work) and show the receipt (drawn from the view just after it)."""
    receipt = await submit.send(ctx.bot, command, ctx.interaction.user.id, channel_id=_here(ctx.interaction), locale=ctx.locale)
    await _receipt(ctx, receipt)


async def _receipt(ctx: Ctx, receipt: Receipt) -> None:
    pv = receipt.view
    assert pv is not None  # (a submission's receipt carries the view after it)
    class_id = pv.sheet["class_id"] if pv.sheet else None
    await ctx.send(embed=receipt_embed(receipt, names_of(pv.game, ctx.locale), class_id, ctx.locale))


async def player_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    bot: Any = interaction.client
    info = await bot.tables.get(bot, interaction)
    return [] if info is None else player_choices(current, info.players, exclude_user=interaction.user.id)


async def skill_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    bot: Any = interaction.client
    pv = await bot.views.get(bot, interaction)
    return [] if pv is None or pv.sheet is None else skill_choices(pv.sheet, current, locale_of(interaction))


async def guess_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    bot: Any = interaction.client
    pv = await bot.views.get(bot, interaction)
    return [] if pv is None or pv.sheet is None else guess_choices(pv.sheet, current, locale_of(interaction))


class Orders(commands.Cog):
    """A player's grail number, identifications, orders and vote."""

    position = 80  # where a shared group lists its commands (bot.discord.features)

    @top_level("grail")
    @app_commands.rename(number=L("cmd.name.number"))
    @app_commands.describe(number=L("cmd.param.number"))
    async def grail(self, interaction: discord.Interaction, number: int) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        await _send(ctx, SendGrail(number))

    @top_level("identify")
    @app_commands.rename(player=L("cmd.name.player"), guess=L("cmd.name.guess"))
    @app_commands.describe(player=L("cmd.param.player_identify"), guess=L("cmd.param.guess"))
    @app_commands.autocomplete(player=player_autocomplete, guess=guess_autocomplete)
    async def identify(self, interaction: discord.Interaction, player: str, guess: str) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)

        await _send(ctx, AddGuess(player, guess))

    @command("act", "attack")
    @app_commands.rename(player=L("cmd.name.player"))
    @app_commands.describe(player=L("cmd.param.player_attack"))
    @app_commands.autocomplete(player=player_autocomplete)
    async def attack(self, interaction: discord.Interaction, player: str) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        await _send(ctx, AddAction("attack", (player,)))

    @command("act", "skill")
    @app_commands.rename(skill=L("cmd.name.skill"), target=L("cmd.name.target"), target2=L("cmd.name.target2"), target3=L("cmd.name.target3"), amount=L("cmd.name.amount"), switch=L("cmd.name.switch"))
    @app_commands.describe(skill=L("cmd.param.skill"), target=L("cmd.param.target"), target2=L("cmd.param.target2"), target3=L("cmd.param.target3"), amount=L("cmd.param.amount"), switch=L("cmd.param.switch"))
    @app_commands.autocomplete(skill=skill_autocomplete, target=player_autocomplete, target2=player_autocomplete, target3=player_autocomplete)
    async def skill(
        self,
        interaction: discord.Interaction,
        skill: str,
        target: str | None = None,
        target2: str | None = None,
        target3: str | None = None,
        amount: int | None = None,
        switch: bool | None = None,
    ) -> None:
        ctx = await Ctx.begin(interaction, idempotent=switch is not None or not may_flip(skill))

        await _send(ctx, ActSkill(skill, tuple(x for x in (target, target2, target3) if x), amount, switch))

    @top_level("vote")
    @app_commands.rename(player=L("cmd.name.player"))
    @app_commands.describe(player=L("cmd.param.player_vote"))
    @app_commands.autocomplete(player=player_autocomplete)
    async def vote(self, interaction: discord.Interaction, player: str) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        await _send(ctx, SendVote(player))

    @top_level("orders")
    @app_commands.rename(clear=L("cmd.name.clear"))
    @app_commands.describe(clear=L("cmd.param.clear"))
    @app_commands.choices(clear=CLEAR_CHOICES)
    async def orders(self, interaction: discord.Interaction, clear: app_commands.Choice[str] | None = None) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        pv = await _view(ctx)
        if clear is None:
            await show_panel(interaction, pv.game.id, pv=pv)
            return
        # The Dusk the player was looking at (outside Dusk, no pin: the engine says when).
        dusk = pv.game.round if pv.game.phase == "dusk" else None
        if clear.value == "pass":  # empty orders, which count as sent
            await _receipt(ctx, await submit.send(ctx.bot, SendSubmission(engine.Orders()), interaction.user.id, game_id=pv.game.id, round_no=dusk))
            return
        withdrawn = await submit.withdraw(ctx.bot, interaction.user.id, clear.value, game_id=pv.game.id, round_no=dusk)
        key = "reply.orders.cleared" if withdrawn else "reply.orders.nothing_to_clear"
        note = notice_embed(t(key, ctx.locale, what=t(f"reply.kind.{clear.value}", ctx.locale)))
        # What is left, with the panel, in the same message.
        pv = await _view(ctx)
        class_id = pv.sheet["class_id"] if pv.sheet else None
        await ctx.send(embeds=[note, sent_embed(pv.sent, pv.game, class_id, ctx.locale, unread=pv.unread)], view=panel_view(pv, ctx.locale))
