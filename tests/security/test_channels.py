"""Channels as an attacker on the server meets them: a room planted to pass for the dead's
channel, a hand that lets the living into the real one, and the bot's right to post in
the game channel taken away and given back."""

from __future__ import annotations

import asyncio

from bot.core.effects import mark_effects_due
from discord_emulator import permissions as perm
from tests.bot import conftest as bot_tables
from tests.bot.conftest import Table, reply_text, started_game

table = bot_tables.table  # the local Discord's table (a fixture)


def sees(table: Table, user, channel) -> bool:
    return bool(table.emu.permissions_of(user, channel) & perm.VIEW_CHANNEL)


def marked(table: Table) -> list:
    """Every room whose topic says it is the dead channel of the game channel."""
    return [c for c in table.guild.channels.values() if c.topic and f"[wolfhowl:dead-of:{table.channel.id}]" in c.topic]


async def join_and_start(table: Table, lobby_reply) -> int:
    await table.delivered()
    posts = [m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if m.custom_ids()]
    join_id = next(c for c in posts[-1].custom_ids() if c.startswith("wh:join:"))
    for p in table.players[:6]:
        await (await table.emu.click(p, posts[-1], join_id)).wait(10)
    await table.run(table.mod, "mod start")
    await table.delivered()
    return int(join_id.rsplit(":", 1)[1])


async def test_a_room_planted_with_the_dead_marker_is_never_let_in_to(table: Table) -> None:
    alice, bob = table.players[0], table.players[1]
    # bob, a player who manages one channel, makes it look like the bot's room for the dead.
    planted = table.emu.create_text_channel(
        table.guild, "the-dead", topic=f"Where the dead talk [wolfhowl:dead-of:{table.channel.id}]",
        overwrites={
            table.guild.roles[table.guild.id]: (0, perm.VIEW_CHANNEL),
            table.emu.ctx.bot: (perm.VIEW_CHANNEL | perm.SEND_MESSAGES | perm.EMBED_LINKS | perm.READ_MESSAGE_HISTORY, 0),
            bob: (perm.VIEW_CHANNEL | perm.SEND_MESSAGES | perm.MANAGE_CHANNELS | perm.MANAGE_ROLES, 0),
        },
    )
    created = await table.run(table.mod, "mod create", {"day": "2h", "dusk": "2h", "morning": "1h"})
    text = reply_text(created)
    # The moderator is told that room is not used, and why; the dead get a room of the bot's.
    assert f"<#{planted.id}>" in text and "I did not make it" in text, text
    [room] = [c for c in marked(table) if c.id != planted.id]
    assert f"<#{room.id}>" in text
    await join_and_start(table, created)

    await table.run(table.mod, "mod kick", {"player": "alice"})  # alice departs
    await table.delivered()
    assert sees(table, alice, room) and not sees(table, alice, planted)
    assert not sees(table, bob, room)  # the living owner of the planted room reads nothing

    # After a restart the bot still knows its own room, and only it.
    await table.bot.resync()
    await table.delivered()
    assert not sees(table, alice, planted) and sees(table, alice, room)
    # Switched off and on again, the planted room is passed over again.
    await table.run(table.mod, "mod settings", {"quiet_dead": False})
    again = reply_text(await table.run(table.mod, "mod settings", {"quiet_dead": True}))
    assert f"<#{room.id}>" in again and f"<#{planted.id}>" in again and not sees(table, alice, planted)


async def test_the_living_let_into_the_dead_channel_by_hand_are_put_back_out(table: Table) -> None:
    game_id = await started_game(table)
    alice, bob, carol = table.players[:3]
    outsider = table.emu.create_user("lurker")
    table.emu.add_member(table.guild, outsider)
    await table.run(table.mod, "mod kick", {"player": "alice"})
    await table.delivered()
    [room] = marked(table)
    assert sees(table, alice, room) and not sees(table, carol, room)

    # A hand opens the dead's room to a living player, to a member outside the game, to a
    # role, and to @everyone.
    watchers = table.emu.create_role(table.guild, "watchers")
    table.emu.give_role(table.guild, bob, watchers)
    table.emu.set_permissions(room, carol, allow=perm.VIEW_CHANNEL | perm.READ_MESSAGE_HISTORY)
    table.emu.set_permissions(room, outsider, allow=perm.VIEW_CHANNEL)
    table.emu.set_permissions(room, watchers, allow=perm.VIEW_CHANNEL)
    assert sees(table, carol, room) and sees(table, outsider, room) and sees(table, bob, room)
    await table.seen()

    await mark_effects_due(table.db, [game_id])  # the reconciler's next look at the game
    table.bot.wake_dispatcher()
    await table.emu.wait_for(
        lambda: not (sees(table, carol, room) or sees(table, outsider, room) or sees(table, bob, room)) or None,
        30, "the dead's room closed again to all but the dead",
    )
    assert sees(table, alice, room)


# -- the right to post, taken and given back ----------------------------------------------
async def held_post(table: Table) -> None:
    """Wait until the first post to the game channel has been refused and backs off."""
    from sqlalchemy import select

    from bot.db.models import OutboxMessage

    async def backing_off() -> bool:
        async with table.db.read() as session:
            first = (
                await session.execute(
                    select(OutboxMessage)
                    .where(OutboxMessage.recipient_kind == "channel", OutboxMessage.status == "pending")
                    .order_by(OutboxMessage.id).limit(1)
                )
            ).scalar_one_or_none()
        return first is not None and first.attempts >= 1 and first.leased_by is None and first.next_attempt_at > table.db.now()

    give_up = asyncio.get_running_loop().time() + 60  # a bound for a loaded machine
    while not await backing_off():
        assert asyncio.get_running_loop().time() < give_up, "no post was held"
        await asyncio.sleep(0.05)


def scoreboards(table: Table) -> list:
    return [
        m for m in table.emu.channel_messages(table.channel, include_ephemeral=False)
        if any(a.filename == "scoreboard.png" for a in m.attachments)
    ]


async def test_a_post_refused_while_the_cache_let_the_bot_post_goes_when_the_right_is_back(table: Table) -> None:
    """The bot's cache of its permissions lets it post (View Channel, Send Messages, Embed
    Links) while Discord refuses this post (its scoreboard file needs Attach Files): the
    update that gives the right back changes nothing the cache looked at before, and must
    still release the post at once, not at the end of its backoff (the clock never moves)."""
    await started_game(table)
    bot_user = table.emu.ctx.bot
    table.emu.set_permissions(table.channel, bot_user, deny=perm.ATTACH_FILES)
    await table.seen()
    asked = await table.run(table.mod, "mod end")
    confirm = next(m for m in [asked.message, *asked.followups] if m is not None and m.custom_ids())
    await (await table.emu.click(table.mod, confirm, confirm.custom_ids()[0])).wait(10)
    await held_post(table)
    assert not scoreboards(table)

    table.emu.set_permissions(table.channel, bot_user)  # CHANNEL_UPDATE: the right is back
    await table.emu.wait_for(lambda: scoreboards(table) or None, 30, "the scoreboard post")


async def test_a_role_given_back_to_the_bot_itself_releases_its_held_posts(table: Table) -> None:
    """The bot may write in the game channel by a role of the server's ("speakers"); a
    moderator takes that role from the bot and gives it back: Discord says so by the bot's
    own GUILD_MEMBER_UPDATE (sent without the members intent), no channel or role update."""
    guild = table.emu.ctx.world.guild_of(table.channel)
    assert guild is not None
    speakers = table.emu.create_role(guild, "speakers")
    table.emu.set_permissions(table.channel, guild.roles[guild.id], deny=perm.SEND_MESSAGES)
    table.emu.set_permissions(table.channel, speakers, allow=perm.SEND_MESSAGES)
    table.emu.give_role(guild, table.emu.ctx.bot, speakers)
    await started_game(table)
    me = guild.members[table.emu.ctx.bot.id]
    table.emu.ctx.guild_ops.set_member_roles(guild, me, [r for r in me.role_ids if r != speakers.id])
    await table.seen()
    posts_before = len(table.emu.channel_messages(table.channel, include_ephemeral=False))
    await table.run(table.mod, "phase pause")
    await held_post(table)

    table.emu.give_role(guild, table.emu.ctx.bot, speakers)
    await table.emu.wait_for(
        lambda: len(table.emu.channel_messages(table.channel, include_ephemeral=False)) > posts_before or None, 30, "the held post"
    )
