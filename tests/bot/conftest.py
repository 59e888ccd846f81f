"""The bot connected to the local Discord emulator, on a scratch SQLite database with a
clock the tests move by hand (``table``), and the steps that open, start and read a game
there."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.db.session import Database
from bot.discord.client import WolfBot
from bot.discord.config import DiscordConfig
from bot.discord.features import discover
from bot.features.me.inbox import read_inbox
from bot.features.moderation import cog_settings as game_settings
from bot.sandbox.play_table import seeded_games
from discord_emulator import Channel, Emulator, Guild, Message, User
from discord_emulator import permissions as perm
from discord_emulator.ready import start_until_ready
from tests.conftest import FakeClock, wipe


@pytest.fixture(autouse=True, scope="session")
def features() -> None:
    """Every feature's cogs, components and looks imported, as the bot imports them when
    it starts (bot.discord.features): a message of any kind renders, with its controls."""
    discover()


@dataclass
class Table:
    emu: Emulator
    bot: WolfBot
    db: Database
    clock: FakeClock
    guild: Guild
    channel: Channel
    mod: User
    players: list[User] = field(default_factory=list)

    async def run(self, user: User, command: str, options: dict[str, Any] | None = None, **where: Any) -> Any:
        """A slash command, answered (the final reply awaited)."""
        if not where:
            where = {"channel": self.channel}
        result = await self.emu.slash(user, command, options or {}, **where)
        return await result.wait(10)

    def texts(self, messages: list[Message]) -> list[str]:
        out = []
        for m in messages:
            parts = [m.content or ""]
            for e in m.embeds:
                parts += [e.get("title") or "", e.get("description") or ""]
                parts += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or []]
            out.append("\n".join(p for p in parts if p))
        return out

    async def seen(self) -> None:
        """Wait until the bot has read every gateway event sent to it so far: its cache
        then knows of a permission, role or channel changed in the emulator."""
        live = [s for s in self.emu.ctx.gateway.sessions.values() if s.connection is not None]
        want = max(s.seq for s in live)
        await self.emu.wait_for(
            lambda: (self.bot.ws is not None and self.bot.ws.sequence is not None and self.bot.ws.sequence >= want) or None,
            10,
            "the bot to read the gateway events sent",
        )

    async def sendable(self) -> int:
        """Messages due now or being sent (not those backing off after a refusal)."""
        from sqlalchemy import func, or_, select

        from bot.db.models import OutboxMessage

        async with self.db.read() as session:
            stmt = (
                select(func.count())
                .select_from(OutboxMessage)
                .where(
                    OutboxMessage.status == "pending",
                    or_(OutboxMessage.next_attempt_at <= self.db.now(), OutboxMessage.leased_by.is_not(None)),
                )
            )
            return int((await session.execute(stmt)).scalar_one())

    async def stop_dispatcher(self) -> None:
        """Stop the bot's outbox loop, for a test that runs the passes itself, and wait
        until it has ended: a pass under way, and the reconciler's after it, would
        otherwise still run alongside the test's own steps."""
        self.bot.dispatcher.stop()
        await next(t for t in asyncio.all_tasks() if t.get_name() == "wolfhowl-dispatcher")

    async def delivered(self) -> None:
        """Let the dispatcher deliver everything due now, and the reconciler bring
        Discord's side in line. Waits as long as a loaded machine needs (a bound, not a
        timing claim) and fails, saying what is left, rather than go on half-delivered."""
        from bot.core.effects import games_to_reconcile

        loop = asyncio.get_running_loop()
        give_up = loop.time() + 120
        while True:
            self.bot.wake_dispatcher()
            pending, reconciling = await self.sendable(), await games_to_reconcile(self.db)
            if pending == 0 and not reconciling:
                break
            assert loop.time() < give_up, f"still {pending} message(s) to send, games to reconcile: {reconciling}"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)


# -- a game at the table ------------------------------------------------------------------
async def open_lobby(table: Table, **options: Any) -> tuple[Message, str]:
    """/mod create with the ``options`` it offers, then the rest as a moderator chooses
    them in the lobby (/mod settings, a house rule /mod house_rules); the lobby post and
    its join button's id."""
    steps = game_settings.by_command(options)
    result = await table.run(table.mod, "mod create", steps.pop(game_settings.CREATE, {}))
    assert "#" in reply_text(result), reply_text(result)
    for command, chosen in steps.items():
        answer = await table.run(table.mod, f"mod {command}", chosen)
        assert "#" in reply_text(answer), reply_text(answer)
    await table.delivered()  # the lobby post comes through the outbox
    posts = [m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if m.custom_ids()]
    lobby = posts[-1]
    join_id = next(c for c in lobby.custom_ids() if c.startswith("wh:join:"))
    return lobby, join_id


async def started_game(table: Table, n: int = 6, **options: Any) -> int:
    """A lobby joined by the first ``n`` players by button, then started; its game id."""
    lobby, join_id = await open_lobby(table, **({"day": "2h", "dusk": "2h", "morning": "1h"} | options))
    for p in table.players[:n]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.run(table.mod, "mod start")
    await table.delivered()
    return int(join_id.rsplit(":", 1)[1])


async def started_with_closed_dms(table: Table, **options: Any) -> User:
    """A started game of six whose sixth seat is grace, whose DMs are closed; grace."""
    grace = table.players[6]
    lobby, join_id = await open_lobby(table, **options)
    for p in [*table.players[:5], grace]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.run(table.mod, "mod start")
    await table.delivered()
    return grace


async def all_read(table: Table, user_id: int) -> None:
    """/inbox marks what it showed read just after its reply went out: wait for it."""
    for _ in range(100):
        if not await read_inbox(table.db, user_id, unread_only=True, mark_read=False):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the inbox was not marked read")


def reply_text(result: Any) -> str:
    """Everything the user sees in an interaction's answer (original and followups)."""
    msgs, seen = [], set()
    for m in [result.message, *result.followups]:
        if m is not None and m.id not in seen:
            seen.add(m.id)
            msgs.append(m)
    out = []
    for m in msgs:
        out.append(m.content or "")
        for e in m.embeds:
            out += [(e.get("author") or {}).get("name") or "", e.get("title") or "", e.get("description") or ""]
            out += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or []]
            out.append((e.get("footer") or {}).get("text") or "")
    return "\n".join(x for x in out if x)


async def start_bot(client: WolfBot, token: str) -> asyncio.Task[None]:
    """Connect ``client`` to the emulator and wait until it is ready."""
    return await start_until_ready(client, token, timeout=15)


@pytest.fixture
async def table(sqlite_url: str, clock: FakeClock, request: pytest.FixtureRequest) -> AsyncIterator[Table]:
    """Each test deals the same classes and rolls the same dice every run (the games'
    seeds derive from the test's id), so a failure replays; tests differ from each other.
    A test marked ``@pytest.mark.bot_config(key=value, ...)`` runs the bot with those
    settings besides."""
    db = Database(sqlite_url, clock=clock)
    await wipe(db)
    async with Emulator(heartbeat_interval=0.5) as emu:
        with emu.patch_discord(), seeded_games(request.node.nodeid):
            owner = emu.create_user("owner")
            guild = emu.create_guild("Wolf Howl Tavern", owner=owner, channels=("tavern", "general"))
            channel = next(c for c in guild.channels.values() if c.name == "tavern")
            mod = emu.create_user("gm")
            emu.add_member(guild, mod)
            emu.give_role(guild, mod, emu.create_role(guild, "GM", permissions=perm.MANAGE_GUILD))
            names = [("alice", "zh-CN"), ("bob", "en-US"), ("carol", "en-US"), ("dave", "zh-CN"), ("erin", "en-US"), ("frank", "en-US"), ("grace", "en-US")]
            players = []
            for name, locale in names:
                u = emu.create_user(name, locale=locale, dms_closed=name == "grace")
                emu.add_member(guild, u)
                players.append(u)
            config = DiscordConfig(
                database_url=db.url.render_as_string(hide_password=False), token=emu.token,
                migrate_on_start=False, scheduler_max_sleep=0.5, dispatch_interval=0.1, guild_ready_timeout=0.5,
                lineup_odds_games=0,  # a test that wants a lobby's odds sets bot.odds.games
                **(marker.kwargs if (marker := request.node.get_closest_marker("bot_config")) else {}),
            )  # fmt: skip
            client = WolfBot(config, db=db)
            task = await start_bot(client, emu.token)
            table = Table(emu, client, db, clock, guild, channel, mod, players)
            try:
                yield table
            finally:
                await table.bot.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 5)
                assert emu.server_errors == []
