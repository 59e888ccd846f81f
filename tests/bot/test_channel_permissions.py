"""A moderator (or an admin) takes the bot's right to post in the game channel away mid
game: the moderator is told by DM, once, and the posts waiting go out, in order, as soon
as the right is back (the gateway's CHANNEL_UPDATE or GUILD_ROLE_UPDATE says so), not at
the end of their backoff: the clock never moves past it."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import select

from bot.db.models import OutboxMessage
from discord_emulator import permissions as perm
from tests.bot.conftest import Table, started_game


def may_post(table: Table) -> bool:
    """Whether the bot's own view of the game channel (discord.py's cache, updated by the
    gateway) lets it post with embeds."""
    channel = table.bot.get_channel(table.channel.id)
    me = channel.guild.me if channel is not None else None
    return me is not None and channel.permissions_for(me).send_messages and channel.permissions_for(me).embed_links


async def held_channel_posts(table: Table) -> list[OutboxMessage]:
    async with table.db.read() as session:
        return list(
            (
                await session.execute(
                    select(OutboxMessage)
                    .where(OutboxMessage.recipient_kind == "channel", OutboxMessage.status == "pending")
                    .order_by(OutboxMessage.id)
                )
            ).scalars()
        )


async def all_out(table: Table) -> None:
    """Every channel post delivered, the clock where it is (a bound for a loaded
    machine, not a timing claim: a post waiting out its backoff never comes)."""
    give_up = asyncio.get_running_loop().time() + 60
    while await held_channel_posts(table):
        assert asyncio.get_running_loop().time() < give_up, "the held posts stayed held"
        await asyncio.sleep(0.05)
    await table.delivered()


async def test_losing_send_messages_warns_the_moderator_once_and_nothing_is_lost(table: Table):
    await started_game(table)
    bot_user = table.emu.ctx.bot
    table.emu.set_permissions(table.channel, bot_user, deny=perm.SEND_MESSAGES)
    dms_before = len(table.emu.dms(table.mod))

    def warnings() -> list[str]:
        return [t for t in table.texts(table.emu.dms(table.mod))[dms_before:] if "I cannot post in" in t]

    async def attempts_of_the_first_waiting_post() -> int | None:
        """Its attempts so far, once the last one is over: None while a send is in
        flight (a claim counts the attempt; its failure, still to come, sets the retry's
        time from the clock as it will be then)."""
        async with table.db.read() as session:
            first = (
                await session.execute(
                    select(OutboxMessage)
                    .where(OutboxMessage.recipient_kind == "channel", OutboxMessage.status == "pending")
                    .order_by(OutboxMessage.id)
                    .limit(1)
                )
            ).scalar_one()
            return first.attempts if first.leased_by is None else None

    async def settled() -> int:
        # A bound, not a timing claim: a loaded machine may take long.
        give_up = asyncio.get_running_loop().time() + 60
        while (attempts := await attempts_of_the_first_waiting_post()) is None:
            assert asyncio.get_running_loop().time() < give_up, "a send stayed in flight"
            await asyncio.sleep(0.05)
        return attempts

    await table.run(table.mod, "phase advance")  # Day 1 closes: two posts for the channel
    await table.emu.wait_for(lambda: warnings(), 10, "the moderator's warning")
    await table.run(table.mod, "phase advance")  # Dusk 1 closes: more of them, held behind
    for _ in range(3):  # the first post's retries come due, and fail again
        tried = await settled()
        table.clock.advance(3600)
        give_up = asyncio.get_running_loop().time() + 60
        while asyncio.get_running_loop().time() < give_up:
            table.bot.wake_dispatcher()
            if (await attempts_of_the_first_waiting_post() or 0) > tried:
                break
            await asyncio.sleep(0.05)
        assert await settled() > tried
    assert len(warnings()) == 1, warnings()
    assert f"<#{table.channel.id}>" in warnings()[0] and "Send Messages" in warnings()[0]
    public_before = table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))
    assert not any("Dusk 1" in t for t in public_before)

    await settled()
    backing_off = (await held_channel_posts(table))[0]
    assert backing_off.next_attempt_at - table.db.now() >= timedelta(minutes=1)
    table.emu.set_permissions(table.channel, bot_user)  # the right is back: the posts go
    await all_out(table)  # without the clock moving past the backoff
    public = table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))[len(public_before):]
    order = [next(i for i, t in enumerate(public) if marker in t) for marker in ("Day 1", "Dusk 1", "Morning 1")]
    assert order == sorted(order), public


async def test_losing_embed_links_holds_the_posts_instead_of_sending_them_bare(table: Table):
    """Without Embed Links Discord drops a post's embeds and keeps the rest: the phase
    post would go out as a bare button, the result post not at all (50006). Both wait,
    the moderator is told (in their own language, English, though the game's is Chinese),
    and they go out whole once the permission is back."""
    await started_game(table, language="zh-CN")
    bot_user = table.emu.ctx.bot
    public_before = len(table.emu.channel_messages(table.channel, include_ephemeral=False))
    dms_before = len(table.emu.dms(table.mod))
    table.emu.set_permissions(table.channel, bot_user, deny=perm.EMBED_LINKS)

    def warnings() -> list[str]:
        return [t for t in table.texts(table.emu.dms(table.mod))[dms_before:] if "I cannot post in" in t]

    await table.run(table.mod, "phase advance")  # Day 1 closes
    await table.emu.wait_for(lambda: warnings(), 10, "the moderator's warning")
    assert "Embed Links" in warnings()[0]
    # The first post was held before it was sent, and the later ones wait behind it.
    assert table.emu.channel_messages(table.channel, include_ephemeral=False)[public_before:] == []

    table.emu.set_permissions(table.channel, bot_user)  # the right is back
    await all_out(table)
    posted = table.emu.channel_messages(table.channel, include_ephemeral=False)[public_before:]
    assert posted and all(m.embeds for m in posted)
    assert any("黄昏" in t for t in table.texts(posted))  # the Dusk post, in the game's language


async def test_a_role_given_its_right_back_releases_the_held_posts_too(table: Table):
    """The right taken away from the bot's own role in the server (no channel
    overwrite): the role's update is what gives it back."""
    await started_game(table)
    guild = table.emu.ctx.world.guild_of(table.channel)
    role = next(r for r in guild.roles.values() if r.bot_id == table.emu.ctx.bot.id)
    everything = role.permissions
    everyone = guild.roles[guild.id]
    everyone_had = everyone.permissions
    table.emu.set_role_permissions(guild, everyone, everyone_had & ~perm.EMBED_LINKS)
    table.emu.set_role_permissions(guild, role, everything & ~perm.EMBED_LINKS)
    await table.emu.wait_for(lambda: not may_post(table), 60, "the bot to see its right gone")
    public_before = len(table.emu.channel_messages(table.channel, include_ephemeral=False))
    await table.run(table.mod, "phase advance")
    give_up = asyncio.get_running_loop().time() + 60
    while not ((held := await held_channel_posts(table)) and held[0].attempts >= 1 and held[0].leased_by is None):
        assert asyncio.get_running_loop().time() < give_up, "the first post never failed"
        await asyncio.sleep(0.05)

    table.emu.set_role_permissions(guild, role, everything)
    await all_out(table)
    posted = table.emu.channel_messages(table.channel, include_ephemeral=False)[public_before:]
    assert posted and all(m.embeds for m in posted)
