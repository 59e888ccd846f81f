"""``/recap [since_round]``: the public events and the caller's own private news since
a round (by default the round of the last thing they sent), privately, a few messages
at a time: a longer recap ends by naming the round to ask from next."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.context import Ctx
from bot.discord.groups import top_level
from bot.discord.translator import L
from bot.features.recap.look import messages, recap_embeds
from bot.features.recap.recap import seat_recap
from bot.i18n import t
from bot.render.replies import INFO_COLOUR, names_of

MESSAGES_PER_RECAP = 4  # one /recap answers in at most this many messages


def page(tagged: list[tuple[int, discord.Embed]], spent: int) -> tuple[list[list[discord.Embed]], int | None]:
    """The first messages of a recap, ending before a round that does not fit whole,
    and the round the next page starts from (None: everything shown)."""
    chunks = messages([e for _, e in tagged], spent)
    if len(chunks) <= MESSAGES_PER_RECAP:
        return chunks, None
    shown = sum(len(c) for c in chunks[:MESSAGES_PER_RECAP])
    next_round = tagged[shown][0]
    whole = [e for r, e in tagged[:shown] if r < next_round]
    if not whole:  # one round bigger than a page: show what fits, go on from the next
        return chunks[:MESSAGES_PER_RECAP], next_round + 1
    return messages(whole, spent), next_round


class Recap(commands.Cog):
    """What a seat saw since a round: ``/recap``."""

    position = 120  # where a shared group lists its commands (bot.discord.features)

    @top_level("recap")
    @app_commands.rename(since_round=L("cmd.name.since_round"))
    @app_commands.describe(since_round=L("cmd.param.since_round"))
    async def recap_command(self, interaction: discord.Interaction, since_round: app_commands.Range[int, 1, 1000] | None = None) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        here = interaction.channel_id if interaction.guild_id is not None else None
        rc = await seat_recap(ctx.db, interaction.user.id, here, since_round)
        key = "recap.title_default" if rc.default_since else "recap.title"
        head = t(key, ctx.locale, game=rc.game.id, seat=rc.seat, round=rc.since_round, now=rc.game.round)
        tagged = recap_embeds(rc.entries, ctx.locale, names_of(rc.game, ctx.locale))
        if not tagged:
            await ctx.send(embed=discord.Embed(title=head, description=t("recap.nothing", ctx.locale, round=rc.since_round), colour=INFO_COLOUR))
            return
        head += "\n" + t("recap.legend", ctx.locale)
        chunks, next_round = page(tagged, len(head))
        for i, chunk in enumerate(chunks):
            await ctx.send(content=head if i == 0 else None, embeds=chunk)
        if next_round is not None and next_round <= rc.game.round:
            await ctx.send(content=t("recap.more", ctx.locale, round=next_round))
