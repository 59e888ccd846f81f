"""The dead stay quiet: a departed player (dead, or removed by a moderator) loses the
right to write in the game channel (a permission overwrite for that member) and may talk
in the game's channel for the dead. A game has quiet dead when its dead channel exists.

Which room is the dead channel. The bot records the id of the room it creates for a game
channel's dead (``service.record_dead_channel``), and that room alone is ever used: a
channel's id cannot be forged, where its topic can (anyone who manages one channel can
write into its topic the marker the bot writes there, and the dead would then be let into
a room a living player reads). The marker stays in the recorded room's topic, for people
to read and to say whether quiet dead is on or switched off (``marker``); a room that
carries it and is not the recorded one is never let in to: the bot makes its own, and
``/mod create`` and ``/mod settings`` tell the moderator which room was passed over and
why (``untrusted_rooms``). A room made before the bot recorded them is passed over too.

Who reads it. Created hidden from @everyone, open to the bot; each departed player of the
running game is let in by an overwrite of their own, and so is each of its spectators
(``/game watch``: the room is the game's gallery, ``bot.features.gallery.gallery``), who are muted
in the game channel as the dead are, and stay muted there after they stop watching.
Every sync puts the room back in line (``seal``): @everyone denied again, a role's View
Channel taken back, and anyone else let in by hand (a living player, a member outside
the game) closed out. Server administrators
see every channel, as Discord has it.

Deleting that channel does not switch quiet dead off (``/mod settings quiet_dead:false``
does): while the game is live the bot makes it again, empty, and lets the dead in. When it
cannot (a permission, the server's channel limit), the dead stay muted in the game channel
all the same, and the bot's own overwrites there tell it that quiet dead is still on.

Everything here is idempotent (it sets what should be, whatever was), so it can run after
every announcement that may change who is dead, and again at the end to lift the
restrictions: every overwrite the bot set in the game channel, whether or not the dead
channel still exists. What it could not do is returned (:class:`QuietReport`) for the
moderator to be told."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

import discord

from bot.core.types import GameInfo
from bot.discord.guild.checks import member_of
from bot.discord.guild.permissions import LIFT, MUTE, MUTED, audit_reason, quiet_missing
from bot.features.gallery.dead_channels import (
    dead_channel_of,
    game_channel_of_dead,
    record_dead_channel,
)
from bot.features.gallery.gallery import gallery_of
from bot.features.lobby.games import game_in_channel, removed_players
from bot.i18n import t

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord.quiet_dead")

QUIET_DENY = dict.fromkeys(MUTED, False)
DEAD_OF = re.compile(r"\[wolfhowl:dead-of:(\d+)\]")


def marker(game_channel_id: int, *, off: bool = False) -> str:
    """The tag in the dead channel's topic that ties it to its game channel; ``off`` while
    the moderator has quiet dead switched off (the channel stays, with its history)."""
    return f"[wolfhowl:{'dead-off' if off else 'dead-of'}:{game_channel_id}]"


def find_dead_channel(guild: discord.Guild, game_channel_id: int, recorded: int | None, *, off: bool = False) -> discord.TextChannel | None:
    """The dead channel of ``game_channel_id``: the room the bot recorded (``recorded``,
    see ``service.dead_channel_of``), while it exists and its topic says quiet dead is on
    (``off``: switched off)."""
    channel = guild.get_channel(recorded) if recorded is not None else None
    if isinstance(channel, discord.TextChannel) and channel.topic and marker(game_channel_id, off=off) in channel.topic:
        return channel
    return None


def untrusted_rooms(guild: discord.Guild, game_channel_id: int, recorded: int | None) -> list[discord.TextChannel]:
    """The rooms that carry the dead marker of ``game_channel_id`` in their topic and are
    not the room the bot made: never used (see the module docstring)."""
    marks = (marker(game_channel_id), marker(game_channel_id, off=True))
    return [c for c in guild.text_channels if c.id != recorded and c.topic and any(m in c.topic for m in marks)]


async def recorded_room(bot: WolfBot, game_channel_id: int) -> int | None:
    return await dead_channel_of(bot.db, game_channel_id)


def _ours(ow: discord.PermissionOverwrite) -> bool:
    return all(getattr(ow, k) is False for k in QUIET_DENY)


def silenced(game_channel: discord.TextChannel) -> set[int]:
    """The members the bot muted in the game channel (known by its overwrite's signature)."""
    return {target.id for target, ow in game_channel.overwrites.items() if not isinstance(target, discord.Role) and _ours(ow)}


def let_in(dead_channel: discord.TextChannel | None) -> set[int]:
    """The members the dead channel is open to by an overwrite of their own (the bot's
    own aside)."""
    if dead_channel is None:
        return set()
    me = dead_channel.guild.me.id
    return {
        target.id for target, ow in dead_channel.overwrites.items()
        if not isinstance(target, discord.Role) and ow.view_channel is True and target.id != me
    }  # fmt: skip


def _muted(game_channel: discord.TextChannel) -> set[int]:
    """The members who may not write in the game channel by an overwrite of their own."""
    return {
        target.id for target, ow in game_channel.overwrites.items() if not isinstance(target, discord.Role) and ow.send_messages is False
    }


def _on_without_its_channel(game_channel: discord.TextChannel, recorded: int | None) -> bool:
    """Quiet dead was on and its channel was deleted: the bot's mutes are still there and
    the moderator did not switch it off (which retags the channel and lifts them)."""
    return bool(silenced(game_channel)) and find_dead_channel(game_channel.guild, game_channel.id, recorded, off=True) is None


def quiet_dead_on(game_channel: discord.TextChannel, recorded: int | None) -> bool:
    """Whether the dead of this channel's game stay quiet (``recorded``: its dead
    channel's id, as the bot recorded it)."""
    return find_dead_channel(game_channel.guild, game_channel.id, recorded) is not None or _on_without_its_channel(game_channel, recorded)


async def ensure_dead_channel(bot: WolfBot, game_channel: discord.TextChannel, locale: str) -> discord.TextChannel:
    """The game's channel for the dead: the one the bot made (switched on again if it
    was off), else one created now, hidden from everyone but the bot, and recorded."""
    guild = game_channel.guild
    recorded = await recorded_room(bot, game_channel.id)
    found = find_dead_channel(guild, game_channel.id, recorded)
    if found is not None:
        return found
    switched_off = find_dead_channel(guild, game_channel.id, recorded, off=True)
    if switched_off is not None and switched_off.topic:  # on again: the same channel
        topic = switched_off.topic.replace(marker(game_channel.id, off=True), marker(game_channel.id))
        return await switched_off.edit(topic=topic, reason=audit_reason(guild, "quiet_dead"))
    overwrites: dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite] = {
        guild.default_role: discord.PermissionOverwrite(view_channel=False),
        guild.me: discord.PermissionOverwrite(view_channel=True, send_messages=True, embed_links=True, read_message_history=True),
    }
    name = t("ui.dead_channel_name", locale, channel=game_channel.name)[:100]
    topic = t("ui.dead_channel_topic", locale, channel=game_channel.mention) + " " + marker(game_channel.id)
    made = await guild.create_text_channel(
        name, category=game_channel.category, overwrites=overwrites, topic=topic[:1024], reason=audit_reason(guild, "quiet_dead")
    )
    await record_dead_channel(bot.db, guild.id, game_channel.id, made.id)
    return made


async def remake_dead_channel(bot: WolfBot, game_channel: discord.TextChannel, locale: str) -> discord.TextChannel | None:
    """The dead channel made again after it was deleted; None when it cannot be (the dead
    then stay muted without a channel of their own)."""
    if quiet_missing(game_channel, ("manage_channels",)):
        return None
    try:
        return await ensure_dead_channel(bot, game_channel, locale)
    except discord.HTTPException:
        log.warning("quiet dead: could not make the dead channel of %s again", game_channel.id, exc_info=True)
        return None


async def dead_channel_deleted(bot: WolfBot, channel: discord.abc.GuildChannel) -> None:
    """A server admin deleted ``channel``: if it was the dead channel of a live game, make
    it again and let the dead in (see the module docstring)."""
    game_channel_id = await game_channel_of_dead(bot.db, channel.id)  # one indexed read
    if game_channel_id is None or not DEAD_OF.search(getattr(channel, "topic", None) or ""):
        return  # not the bot's room, or quiet dead was switched off there
    info = await game_in_channel(bot.db, game_channel_id)
    game_channel = channel.guild.get_channel(game_channel_id)
    if info is None or not isinstance(game_channel, discord.TextChannel):
        return
    dead = await remake_dead_channel(bot, game_channel, info.settings.language)
    log.info("game %s: its dead channel %s was deleted; made again: %s", info.id, channel.id, dead.id if dead else None)
    if dead is not None:
        await sync_quiet_dead(bot, info, dead_channel=dead)


def _target(who: discord.Member | discord.User) -> discord.Member:
    """Someone an overwrite is set for: discord.py sets a member's for any ``User`` (one
    who left the server is no longer a ``Member``), though its types name only members
    and roles."""
    return cast(discord.Member, who)


async def silence(game_channel: discord.TextChannel, dead_channel: discord.TextChannel | None, member: discord.Member | discord.User) -> None:
    current = game_channel.overwrites_for(member)
    if current.send_messages is not False:
        current.update(**QUIET_DENY)
        await game_channel.set_permissions(_target(member), overwrite=current, reason=audit_reason(game_channel.guild, "left"))
    if dead_channel is not None and dead_channel.overwrites_for(member).view_channel is not True:
        await dead_channel.set_permissions(
            _target(member), view_channel=True, send_messages=True, read_message_history=True, reason=audit_reason(game_channel.guild, "left")
        )


async def close_dead_channel(dead_channel: discord.TextChannel, member: discord.Member | discord.User) -> None:
    """Take back the dead channel from someone who is playing (alive) or whose game is
    over: what the dead say there is for the dead of a running game only."""
    if dead_channel.overwrites_for(member).view_channel is True:
        await dead_channel.set_permissions(_target(member), overwrite=None, reason=audit_reason(dead_channel.guild, "dead_closed"))


async def unsilence(game_channel: discord.TextChannel, member: discord.Member | discord.User) -> None:
    """Lift the bot's mute (only its own: a moderator's overwrite of another shape stays)."""
    current = game_channel.overwrites_for(member)
    if _ours(current):
        current.update(**{k: None for k in QUIET_DENY})
        await game_channel.set_permissions(
            _target(member), overwrite=None if current.is_empty() else current, reason=audit_reason(game_channel.guild, "voice_back")
        )


def _settled(
    game_channel: discord.TextChannel, dead_channel: discord.TextChannel | None, user_id: int, *, muted: bool, inside: bool | None = None
) -> bool:
    """Whether ``user_id``'s overwrites already are what :func:`silence` (``muted``, let
    into the dead channel unless ``inside`` is False) or :func:`unsilence` and
    :func:`close_dead_channel` would make them: nothing to do."""
    who = discord.Object(user_id)
    in_dead = dead_channel is not None and dead_channel.overwrites_for(who).view_channel is True
    if muted:
        want_in = True if inside is None else inside
        return game_channel.overwrites_for(who).send_messages is False and (dead_channel is None or in_dead == want_in)
    return not _ours(game_channel.overwrites_for(who)) and not in_dead


def _left_behind(game_channel: discord.TextChannel, dead_channel: discord.TextChannel | None, user_id: int) -> bool:
    """Overwrites of ours on someone who has left the server: Discord keeps them until
    they are deleted, so a mute left in place would greet them when they come back."""
    who = discord.Object(user_id)
    return _ours(game_channel.overwrites_for(who)) or (dead_channel is not None and dead_channel.overwrites_for(who).view_channel is True)


@dataclass(frozen=True, slots=True)
class QuietReport:
    """What a sync could not do: the members it should have muted in the game channel
    (``not_muted``) or given their voice back (``not_freed``), and the permissions the
    bot lacks for it there (empty when Discord refused for another reason). ``news``:
    the game's moderator has not been told this yet."""

    channel_id: int = 0
    not_muted: tuple[int, ...] = ()
    not_freed: tuple[int, ...] = ()
    missing: tuple[str, ...] = ()
    finished: bool = False
    news: bool = field(default=False, compare=False)

    def __bool__(self) -> bool:
        return bool(self.not_muted or self.not_freed)


def switch_off_missing(game_channel: discord.TextChannel, recorded: int | None) -> list[str]:
    """The permissions switching quiet dead off needs and the bot lacks: Manage Channels
    to retag the dead channel, Manage Roles to give the muted their voice back."""
    needed = []
    if find_dead_channel(game_channel.guild, game_channel.id, recorded) is not None:
        needed.append("manage_channels")
    if silenced(game_channel):
        needed.append("manage_roles")
    return quiet_missing(game_channel, needed)


async def switch_off(bot: WolfBot, info: GameInfo, game_channel: discord.TextChannel) -> QuietReport:
    """Quiet dead off (check :func:`switch_off_missing` first): mark the dead channel as
    switched off (it stays, with its history, and is used again if quiet dead is switched
    back on), then give everyone this game muted their voice back and close that channel
    to them (switched on again, the departed are let in again). Retagged first, so what
    cannot be undone now is undone by the next sync."""
    guild = game_channel.guild
    found = find_dead_channel(guild, game_channel.id, await recorded_room(bot, game_channel.id))
    if found is not None and found.topic:
        await found.edit(
            topic=found.topic.replace(marker(game_channel.id), marker(game_channel.id, off=True)), reason=audit_reason(guild, "quiet_dead_off")
        )
    return await _release_all(bot, info, game_channel, found)


async def _release_all(bot: WolfBot, info: GameInfo, game_channel: discord.TextChannel, dead_channel: discord.TextChannel | None) -> QuietReport:
    """Quiet dead off: no mute of the bot's left in the game channel, and the dead channel
    (switched off) open to nobody."""
    return await _apply(bot, info, game_channel, dead_channel, mute=set(), free=silenced(game_channel) | let_in(dead_channel))


def departed_ids(info: GameInfo) -> frozenset[int]:
    """Who holds a departed seat: dead, or removed by a moderator (an emptied seat keeps
    the id of the one removed from it)."""
    return frozenset(p.user_id for p in info.players if p.seat is not None and not p.alive and p.user_id)


async def sync_quiet_dead(bot: WolfBot, info: GameInfo, dead_channel: discord.TextChannel | None = None) -> QuietReport:
    """Mute the departed of ``info`` (the dead still seated and the players a moderator
    removed), give the living their voice and close the dead channel to them (someone who
    died in an earlier game here may be playing again); at the end, give everyone their
    voice back and close the dead channel to all. With quiet dead off, lift any mute of
    the bot's that is left. ``dead_channel``: one just created (not yet in the cache),
    else found by its topic."""
    guild = bot.get_guild(info.guild_id) if info.guild_id is not None else None  # a practice game: no server
    game_channel = guild.get_channel(info.channel_id) if guild is not None else None
    if not isinstance(game_channel, discord.TextChannel):
        return QuietReport()
    recorded = await recorded_room(bot, info.channel_id)
    dead_channel = dead_channel or find_dead_channel(game_channel.guild, info.channel_id, recorded)
    finished = info.status in ("over", "cancelled")
    if dead_channel is None and not finished:
        if not _on_without_its_channel(game_channel, recorded):  # quiet dead is off
            return await _release_all(bot, info, game_channel, find_dead_channel(game_channel.guild, info.channel_id, recorded, off=True))
        dead_channel = await remake_dead_channel(bot, game_channel, info.settings.language)
    removed = set(await removed_players(bot.db, info.id))
    seated = {p.user_id for p in info.players if p.user_id}
    if finished:
        dead_channel = dead_channel or find_dead_channel(game_channel.guild, info.channel_id, recorded, off=True)
        free = seated | removed | silenced(game_channel) | let_in(dead_channel)
        return await _apply(bot, info, game_channel, dead_channel, mute=set(), free=free)
    dead = set(departed_ids(info)) | removed
    # The gallery: its spectators read the dead's room beside the departed; those who
    # stopped watching after the start stay muted here, for what they saw there.
    gallery = await gallery_of(bot.db, info.id)
    mute = dead | gallery.seen
    inside = dead | gallery.watching
    if dead_channel is not None:
        await seal(dead_channel)
    # The living, and anyone else let into the dead's room by hand, closed out of it.
    return await _apply(bot, info, game_channel, dead_channel, mute=mute, free=(seated | let_in(dead_channel)) - mute, inside=inside)


async def seal(dead_channel: discord.TextChannel) -> None:
    """The dead channel hidden again from @everyone and from every role a hand opened it
    to (an overwrite that lets a role see it); each member's is :func:`_apply`'s. Costs no
    request when it is as the bot made it. Best effort: a refusal is logged, and the next
    sync tries again."""
    guild = dead_channel.guild
    if quiet_missing(dead_channel, LIFT):
        return  # (the members' overwrites cannot be written either: _apply reports it)
    for target, ow in list(dead_channel.overwrites.items()):
        if isinstance(target, discord.Role) and not target.is_default() and ow.view_channel is True:
            ow.update(view_channel=None)
            await _set(dead_channel, target, None if ow.is_empty() else ow)
    everyone = dead_channel.overwrites_for(guild.default_role)
    if everyone.view_channel is not False:
        everyone.update(view_channel=False)
        await _set(dead_channel, guild.default_role, everyone)


async def _set(channel: discord.TextChannel, target: discord.Role, overwrite: discord.PermissionOverwrite | None) -> None:
    try:
        await channel.set_permissions(target, overwrite=overwrite, reason=audit_reason(channel.guild, "dead_closed"))
    except discord.HTTPException:
        log.warning("quiet dead: could not close dead channel %s to role %s", channel.id, target.id, exc_info=True)


async def _apply(
    bot: WolfBot, info: GameInfo, game_channel: discord.TextChannel, dead_channel: discord.TextChannel | None, *, mute: set[int], free: set[int],
    inside: set[int] | None = None,
) -> QuietReport:
    """Mute ``mute`` and free ``free`` (closing the dead channel to them); of the muted,
    those in ``inside`` (default: all) are let into the dead channel and the others
    closed out of it. What could not be done, with the missing permission when that is
    why."""
    inside = mute if inside is None else inside
    lacking = quiet_missing(game_channel, MUTE if mute - _muted(game_channel) else LIFT)
    if lacking:  # no use asking Discord: say who is left as they should not be
        muted, ours = _muted(game_channel), silenced(game_channel)
        report = QuietReport(game_channel.id, tuple(sorted(mute - muted)), tuple(sorted(free & ours)), tuple(lacking))
        return _told(bot, info, report)
    not_muted: list[int] = []
    not_freed: list[int] = []
    # Only those whose overwrites are not yet as they should be are looked up (a member
    # not in the cache costs a request): a check of a game where nothing changed, as at
    # every start, costs none.
    todo = [u for u in sorted(mute | free) if not _settled(game_channel, dead_channel, u, muted=u in mute, inside=u in inside)]
    for user_id in todo:
        member: discord.Member | discord.User | None = await member_of(game_channel.guild, user_id)
        if member is None and (user_id in mute or not _left_behind(game_channel, dead_channel, user_id)):
            continue  # no longer in the server: nobody to mute, and nothing of ours to lift
        try:
            if member is None:  # discord.py sets a user's overwrite for a User, not a bare id
                member = await bot.fetch_user(user_id)
            if user_id in mute:
                await silence(game_channel, dead_channel if user_id in inside else None, member)
                if user_id not in inside and dead_channel is not None:
                    await close_dead_channel(dead_channel, member)
            else:
                await unsilence(game_channel, member)
                if dead_channel is not None:
                    await close_dead_channel(dead_channel, member)
        except discord.HTTPException:
            log.warning("quiet dead: could not update the overwrites of user %s in game %s", user_id, info.id, exc_info=True)
            (not_muted if user_id in mute else not_freed).append(user_id)
    return _told(bot, info, QuietReport(game_channel.id, tuple(not_muted), tuple(not_freed)))


def _told(bot: WolfBot, info: GameInfo, report: QuietReport) -> QuietReport:
    """``report`` marked as news unless the moderator was told the same last time; a
    report with nothing to tell resets that, so a new problem is news again."""
    report = QuietReport(
        report.channel_id, report.not_muted, report.not_freed, report.missing, info.status in ("over", "cancelled"),
        news=bool(report) and bot.quiet_told.get(info.id) != report,
    )  # fmt: skip
    bot.quiet_told[info.id] = report
    return report
