"""``/me`` (my sheet, HP, the states I know of, the grail, what I know and what I have
sent) and ``/inbox`` (the private messages that could not reach me by DM: the new ones
first, marked read once shown)."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

import engine
from bot.core.errors import ServiceError
from bot.core.types import PlayerView
from bot.discord.context import Ctx
from bot.discord.groups import top_level
from bot.features.lobby.games import get_game
from bot.features.me.inbox import mark_inbox_read, read_inbox
from bot.features.play.look import describe_submission
from bot.i18n import t, terms
from bot.render import words
from bot.render.fields import add_lines
from bot.render.outgoing import render_outgoing
from bot.render.replies import INFO_COLOUR, closing_line, names_of, phase_name
from bot.render.sheet import sheet_embed


def me_embeds(pv: PlayerView, locale: str) -> list[discord.Embed]:
    info = pv.game
    if pv.sheet is None:
        return [discord.Embed(title=t("reply.me.lobby_title", locale, game=info.id), description=t("reply.me.lobby", locale, count=len(info.players), max=info.settings.max_players), colour=INFO_COLOUR)]
    sheet = pv.sheet
    names = names_of(info, locale)
    # The live part first, its sections always in this order (what is open and what I
    # sent, the grail, my states, what I know); the class sheet after it, for reference.
    live = discord.Embed(colour=INFO_COLOUR)
    live.set_author(name=t("reply.me.seat", locale, seat=pv.seat, game=info.id))
    status = [t("reply.me.phase", locale, phase=phase_name(info.phase, locale), round=info.round, closes=closing_line(info.deadline, locale))]
    for kind in engine.KINDS_TAKEN.get(info.phase or "", ()):
        if kind in pv.sent:
            what = words.clauses(describe_submission(kind, pv.sent[kind], names, sheet["class_id"], locale).splitlines(), locale)
        else:
            what = t("reply.orders.nothing", locale)
        status.append(t("reply.me.sent_line", locale, kind=t(f"reply.kind.{kind}", locale), what=what))
    status.append(t("absence.me_misses", locale, in_row=pv.misses[0], total=pv.misses[1]))
    if pv.unread:
        status.insert(0, t("reply.inbox.waiting", locale, count=pv.unread))
    add_lines(live, t("reply.me.sent", locale), status)
    grail = t("reply.me.grails", locale, banked=sheet["grails_banked"])
    if sheet["holds_grail"]:
        grail = t("sheet.grail", locale) + "\n" + grail
    live.add_field(name=t("reply.me.grail", locale), value=grail, inline=False)
    states = words.listing((terms.state(x, locale) for x in sheet["known_states"]), locale) if sheet["known_states"] else t("reply.me.no_states", locale)
    live.add_field(name=t("sheet.states", locale), value=states, inline=False)
    confirmed = sheet.get("confirmed") or []
    if confirmed:
        lines = [t(f"event.Confirm{g['what'].capitalize()}", locale, name=words.seat_label(g["target"], names), value=terms.guess_value(g["what"], g["value"], locale)) for g in confirmed]
        add_lines(live, t("reply.me.known", locale), lines)
    return [live, sheet_embed(sheet, locale, states=False)]


INBOX_PAGE = 10  # new messages shown by one /inbox
INBOX_PAGE_SEEN = 5  # already seen ones shown when there is nothing new
EMBEDS_PER_MESSAGE = 10
CHARS_PER_MESSAGE = 6000  # Discord's limit on the text of all embeds of one message


async def inbox_embeds(ctx: Ctx, messages: list[Any]) -> list[discord.Embed]:
    """The inbox messages as embeds, each in the reader's language (attachments, such as
    the scoreboard's chart, are left out: the channel has them)."""
    infos: dict[int, Any] = {}
    embeds: list[discord.Embed] = []
    for m in messages:
        if m.game_id is not None and m.game_id not in infos:
            try:
                infos[m.game_id] = await get_game(ctx.db, m.game_id)
            except ServiceError:
                infos[m.game_id] = None
        rendered = render_outgoing(m, infos.get(m.game_id) if m.game_id else None, locale=ctx.locale)
        if rendered.content:
            embeds.append(discord.Embed(description=rendered.content, colour=INFO_COLOUR))
        for e in rendered.embeds:
            if e.image and e.image.url and e.image.url.startswith("attachment://"):
                e.set_image(url=None)
            embeds.append(e)
    return embeds


def embed_chunks(embeds: list[discord.Embed]) -> list[list[discord.Embed]]:
    """Embeds grouped into messages Discord accepts (at most 10, 6000 characters)."""
    chunks: list[list[discord.Embed]] = []
    size = 0
    for e in embeds:
        if not chunks or len(chunks[-1]) == EMBEDS_PER_MESSAGE or size + len(e) > CHARS_PER_MESSAGE:
            chunks.append([])
            size = 0
        chunks[-1].append(e)
        size += len(e)
    return chunks


class Me(commands.Cog):
    """A player's own sheet and private messages: ``/me``, ``/inbox``."""

    position = 90  # where a shared group lists its commands (bot.discord.features)

    @top_level("me")
    async def me(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        pv = await ctx.view()
        await ctx.send(embeds=me_embeds(pv, ctx.locale))

    @top_level("inbox")
    async def inbox(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        messages = await read_inbox(ctx.db, interaction.user.id, mark_read=False)
        if not messages:
            await ctx.send(embed=discord.Embed(description=t("reply.inbox.empty", ctx.locale), colour=INFO_COLOUR))
            return
        # Unread come first (oldest first): show those, a page at a time; with nothing
        # new, the last few already seen.
        unread = [m for m in messages if m.read_at is None]
        if unread:
            shown = unread[:INBOX_PAGE]
            head = t("reply.inbox.title", ctx.locale, count=len(unread), total=len(messages))
        else:
            shown = messages[-INBOX_PAGE_SEEN:]
            head = t("reply.inbox.nothing_new", ctx.locale, shown=len(shown), count=len(messages))
        embeds = await inbox_embeds(ctx, shown)
        for i, chunk in enumerate(embed_chunks(embeds)):
            await ctx.send(content=head if i == 0 else None, embeds=chunk)
        # Marked read once shown (a reply that failed leaves them new for next time), and
        # before "use /inbox again", so that the next page is the next one.
        await mark_inbox_read(ctx.db, interaction.user.id, [m.key for m in shown if m.read_at is None])
        if len(unread) > len(shown):
            await ctx.send(content=t("reply.inbox.more", ctx.locale, count=len(unread) - len(shown)))
