"""What players send: ``/grail``, ``/identify``, ``/act attack``, ``/act skill``,
``/vote``, and ``/orders`` to see, change or clear it (with the order panel).

Each handler that sends something resolves its arguments (players, skills, guesses)
against the caller's own view inside the unit of work that stores the submission
(``submit.command``), and shows the receipt; the engine decides what is allowed."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import bot.service as service
import engine
from bot.discord.commands import submit
from bot.discord.commands.choices import (
    guess_choices,
    may_flip,
    parse_guess,
    parse_skill,
    skill_choices,
)
from bot.discord.commands.groups import command, top_level
from bot.discord.commands.players import parse_player, player_choices
from bot.discord.components.panel import panel_view, show_panel
from bot.discord.context import Ctx, locale_of
from bot.discord.embeds.replies import (
    names_of,
    notice_embed,
    receipt_embed,
    sent_embed,
    skill_label,
)
from bot.discord.errors import ReplyError
from bot.discord.translator import L
from bot.i18n import t
from bot.service.types import Receipt
from bot.service.views import PlayerView

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


async def _send(ctx: Ctx, ask: Any) -> None:
    """Send what ``ask`` makes of the caller's view, in one unit of work, and show the
    receipt (drawn from the view just after it)."""
    receipt = await submit.command(ctx.bot, ctx.interaction.user.id, _here(ctx.interaction), ask, locale=ctx.locale)
    await _receipt(ctx, receipt)


async def _receipt(ctx: Ctx, receipt: Receipt) -> None:
    pv = receipt.view
    assert pv is not None  # (a submission's receipt carries the view after it)
    class_id = pv.sheet["class_id"] if pv.sheet else None
    await ctx.send(embed=receipt_embed(receipt, names_of(pv.game, ctx.locale), class_id, ctx.locale))


def _seat(text: str, pv: PlayerView) -> int:
    seat = parse_player(text, pv.game.players).seat
    assert seat is not None
    return seat


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

    @top_level("grail")
    @app_commands.rename(number=L("cmd.name.number"))
    @app_commands.describe(number=L("cmd.param.number"))
    async def grail(self, interaction: discord.Interaction, number: int) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        await _send(ctx, lambda pv: engine.GrailNumber(number))

    @top_level("identify")
    @app_commands.rename(player=L("cmd.name.player"), guess=L("cmd.name.guess"))
    @app_commands.describe(player=L("cmd.param.player_identify"), guess=L("cmd.param.guess"))
    @app_commands.autocomplete(player=player_autocomplete, guess=guess_autocomplete)
    async def identify(self, interaction: discord.Interaction, player: str, guess: str) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)

        def ask(pv: PlayerView) -> service.Asked:
            seat = _seat(player, pv)
            what, value = parse_guess(guess, pv.sheet)
            return service.guess_piece(engine.Guess(seat, what, value))  # type: ignore[arg-type]  # the engine checks ``what``

        await _send(ctx, ask)

    @command("act", "attack")
    @app_commands.rename(player=L("cmd.name.player"))
    @app_commands.describe(player=L("cmd.param.player_attack"))
    @app_commands.autocomplete(player=player_autocomplete)
    async def attack(self, interaction: discord.Interaction, player: str) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        await _send(ctx, lambda pv: service.action_piece(engine.Action("attack", (_seat(player, pv),))))

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

        def ask(pv: PlayerView) -> service.Asked:
            if pv.sheet is None:
                raise ReplyError("reply.error.not_started")
            chosen = parse_skill(skill, pv.sheet)
            targets = tuple(_seat(x, pv) for x in (target, target2, target3) if x)
            if chosen == "release":
                return service.action_piece(engine.Action("release", targets, amount))
            if not isinstance(chosen, str) and chosen.mode == "toggle":
                return service.toggle_piece(chosen.id, switch)
            if switch is not None:  # only a toggle is switched on or off
                raise ReplyError("reply.error.switch_not_toggle", skill=skill_label(pv.sheet["class_id"], chosen if isinstance(chosen, str) else chosen.id, ctx.locale))
            assert not isinstance(chosen, str)
            return service.action_piece(engine.Action(chosen.id, targets, amount))

        await _send(ctx, ask)

    @top_level("vote")
    @app_commands.rename(player=L("cmd.name.player"))
    @app_commands.describe(player=L("cmd.param.player_vote"))
    @app_commands.autocomplete(player=player_autocomplete)
    async def vote(self, interaction: discord.Interaction, player: str) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        await _send(ctx, lambda pv: engine.Vote(_seat(player, pv)))

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
        if clear.value == "pass":
            await _receipt(ctx, await submit.pass_night(ctx.bot, pv, interaction.user.id))
            return
        withdrawn = await submit.clear(ctx.bot, pv, interaction.user.id, clear.value)
        key = "reply.orders.cleared" if withdrawn else "reply.orders.nothing_to_clear"
        note = notice_embed(t(key, ctx.locale, what=t(f"reply.kind.{clear.value}", ctx.locale)))
        # What is left, with the panel, in the same message.
        pv = await _view(ctx)
        class_id = pv.sheet["class_id"] if pv.sheet else None
        await ctx.send(embeds=[note, sent_embed(pv.sent, pv.game, class_id, ctx.locale, unread=pv.unread)], view=panel_view(pv, ctx.locale))
