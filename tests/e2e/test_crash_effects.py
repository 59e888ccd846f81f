"""Discord's side follows the stored state whatever a crash interrupted.

Each test kills the bot at the one moment a side effect used to be lost: after Discord
created a post (or the database took a change) and before the bot heard back. The
process started afterwards finds the post in the channel's history and does not send it
again; the mutes, the dead channel, the voices given back and the lobby post must follow
all the same, at once (not at some later departure or restart)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import discord

from bot.discord.guild.permissions import MUTED
from bot.features.lobby.games import get_game
from bot.features.moderation.moderation import end_game, pause_game, remove_player
from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from discord_emulator import permissions as perm
from tests.e2e.conftest import run

OPTIONS = GameOptions(day="1h", dusk="1h", morning="1h", quiet_dead=True)
SOON = 10.0  # seconds: a generous bound for "at once" on a loaded machine


@contextlib.contextmanager
def dying_after(predicate: Callable[[discord.Message], bool]) -> Iterator[asyncio.Event]:
    """The bot's sends go through; the first whose message matches ``predicate`` never
    returns (the process is about to die: Discord has the message, the bot never hears
    so). The event is set once Discord has it."""
    created = asyncio.Event()
    original = discord.abc.Messageable.send

    async def send(self: Any, *args: Any, **kwargs: Any) -> discord.Message:
        message = await original(self, *args, **kwargs)
        if not created.is_set() and predicate(message):
            created.set()
            await asyncio.get_running_loop().create_future()  # cancelled by the crash
        return message

    with mock.patch.object(discord.abc.Messageable, "send", send):
        yield created


@contextlib.contextmanager
def dying_before_lobby_refresh() -> Iterator[asyncio.Event]:
    """The join is stored; the process dies before it edits the lobby post."""
    reached = asyncio.Event()

    async def refresh(*args: Any, **kwargs: Any) -> None:
        reached.set()
        await asyncio.get_running_loop().create_future()

    with mock.patch("bot.features.lobby.components.refresh_lobby", refresh):
        yield reached


async def crash_and_restart(tavern: Tavern, clock: GameClock) -> None:
    """Kill the bot and start another, whose start-up check runs while the dead one's
    leases hold; then they run out (as they do, a minute later, in a real restart)."""
    await tavern.stop_bot(crash=True)
    await tavern.start_bot()
    await asyncio.wait_for(asyncio.gather(*(t for t in tavern.bot._tasks if t.get_name() == "wolfhowl-resync")), SOON)
    clock.skip(61)
    tavern.bot.wake_dispatcher()


async def until(tavern: Tavern, check: Callable[[], bool], what: str) -> None:
    await tavern.emu.wait_for(lambda: check() or None, SOON, what)


def can_send(tavern: Tavern, user: Any, channel: Any) -> bool:
    return bool(tavern.emu.permissions_of(user, channel) & perm.SEND_MESSAGES)


def dead_channel(tavern: Tavern, channel: Any) -> Any:
    assert tavern.guild is not None
    return next(c for c in tavern.guild.channels.values() if c.topic and f"[wolfhowl:dead-of:{channel.id}]" in c.topic)


async def started(tavern: Tavern, players: int = 8) -> tuple[TableGame, Any]:
    seating = tavern.seat_table(TableSpec(players=players))
    game = TableGame(tavern, seating, OPTIONS, seed="effects")
    await game.open()
    assert await game.next_phase(1, "day")
    await tavern.drained()
    return game, seating.channel


async def seat_of(tavern: Tavern, game_id: int, user_id: int) -> int:
    info = await get_game(tavern.db, game_id)
    return next(p.seat for p in info.players if p.user_id == user_id and p.seat is not None)


def test_a_departure_posted_just_before_a_crash_is_muted_at_once_after_the_restart():
    """The case of the report: the post naming the departed is created, the bot dies
    before recording it; on restart it is found in the history, not sent again, and the
    departed is muted and let into the dead channel at once."""

    async def scenario() -> None:
        clock = GameClock(1.0)
        async with Tavern(clock=clock, seed="effects") as tavern:
            game, channel = await started(tavern)
            alice = game.players[0].user
            assert can_send(tavern, alice, channel)
            with dying_after(lambda m: m.channel.id == channel.id) as created:
                await remove_player(tavern.db, game.game_id, await seat_of(tavern, game.game_id, alice.id))
                tavern.bot.wake_dispatcher()
                await asyncio.wait_for(created.wait(), SOON)
                await crash_and_restart(tavern, clock)
            posts = len(tavern.public(channel))
            await until(tavern, lambda: not can_send(tavern, alice, channel), "the departed muted")
            dead = dead_channel(tavern, channel)
            await until(tavern, lambda: bool(tavern.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL), "the departed let in")
            await tavern.drained()
            assert len(tavern.public(channel)) == posts  # the post was found, not sent again
            assert all(can_send(tavern, p.user, channel) for p in game.players[1:])

    run(scenario())


def test_an_end_posted_just_before_a_crash_gives_everyone_their_voice_back():
    async def scenario() -> None:
        clock = GameClock(1.0)
        async with Tavern(clock=clock, seed="effects") as tavern:
            game, channel = await started(tavern)
            alice = game.players[0].user
            await game.moderator.command("mod kick", {"player": game.players[0].name})
            await tavern.drained()
            await until(tavern, lambda: not can_send(tavern, alice, channel), "alice muted")
            dead = dead_channel(tavern, channel)
            def seed_post(m: discord.Message) -> bool:  # the end's last post
                return m.channel.id == channel.id and any(reader.match("post.seed", e.description or "") for e in m.embeds)

            with dying_after(seed_post) as created:
                await end_game(tavern.db, game.game_id)
                tavern.bot.wake_dispatcher()
                await asyncio.wait_for(created.wait(), SOON)
                await crash_and_restart(tavern, clock)
            await until(tavern, lambda: can_send(tavern, alice, channel), "alice's voice back")
            await until(tavern, lambda: not tavern.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL, "the dead channel closed")

    run(scenario())


def test_a_stale_mute_on_a_living_player_is_lifted_after_a_crash_mid_post():
    """A mute of the bot's left on a living player (a process that died mid-sync): the
    next change of the game, though its post was interrupted by a crash, frees them."""

    async def scenario() -> None:
        clock = GameClock(1.0)
        async with Tavern(clock=clock, seed="effects") as tavern:
            game, channel = await started(tavern)
            bob = game.players[1].user
            tavern.emu.set_permissions(channel, bob, deny=discord.Permissions(**dict.fromkeys(MUTED, True)).value)
            await until(tavern, lambda: not can_send(tavern, bob, channel), "bob muted by the stale overwrite")
            with dying_after(lambda m: m.channel.id == channel.id) as created:
                await pause_game(tavern.db, game.game_id)
                tavern.bot.wake_dispatcher()
                await asyncio.wait_for(created.wait(), SOON)
                await crash_and_restart(tavern, clock)
            await until(tavern, lambda: can_send(tavern, bob, channel), "bob's voice back")

    run(scenario())


def test_a_join_stored_just_before_a_crash_shows_on_the_lobby_post_after_the_restart():
    async def scenario() -> None:
        clock = GameClock(1.0)
        async with Tavern(clock=clock, seed="effects") as tavern:
            seating = tavern.seat_table(TableSpec(players=6))
            game = TableGame(tavern, seating, OPTIONS, seed="effects")
            await game.moderator.create(**OPTIONS.lobby_options())
            game_id = game.moderator.game_id
            lobby = await game.wait_post(lambda m: f"wh:join:{game_id}" in m.custom_ids(), "the lobby post")
            await game.players[0].join(lobby)
            with dying_before_lobby_refresh() as reached:
                pressed = asyncio.ensure_future(game.players[1].join(lobby))
                await asyncio.wait_for(reached.wait(), SOON)
                await crash_and_restart(tavern, clock)
                pressed.cancel()
                with contextlib.suppress(BaseException):
                    await pressed
            name = game.players[1].name

            def shown() -> bool:
                post = next(m for m in tavern.emu.messages if m.id == lobby.id)
                return any(name in str(f.get("value", "")) for e in post.embeds for f in e.get("fields", []))

            assert [p.user_id for p in (await get_game(tavern.db, game_id)).players][-1] == game.players[1].user.id
            await until(tavern, shown, "the lobby post listing the newcomer")

    run(scenario())


def test_a_restart_takes_over_what_the_dead_process_held_at_once():
    """Killed in the middle of a batch, the process held the rest of it for a minute;
    started again (the same process, by its name), it delivers the rest at once, each
    message once, with no wait for the dead one's leases to run out."""

    async def scenario() -> None:
        clock = GameClock(1.0)
        async with Tavern(clock=clock, seed="effects") as tavern:
            seating = tavern.seat_table(TableSpec(players=6))
            game = TableGame(tavern, seating, OPTIONS, seed="effects")
            dm_ids = {tavern.emu.dm_channel(u).id for u in seating.players}
            with dying_after(lambda m: m.channel.id in dm_ids) as created:
                await game.open()  # the start: a sheet to each player by DM
                await asyncio.wait_for(created.wait(), SOON)
                await tavern.stop_bot(crash=True)
            await tavern.start_bot()
            await tavern.drained(SOON)  # no clock skipped: the leases were taken over
            sent = [r for r in tavern.emu.requests if r.route == "POST /channels/{channel_id}/messages" and r.status == 200]
            nonces = [(r.json or {}).get("nonce") for r in sent if isinstance(r.json, dict)]
            assert len(nonces) == len(set(nonces))

    run(scenario())
