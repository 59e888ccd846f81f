"""Two sharded bot processes on one PostgreSQL database, over the local Discord: process
A runs shards 0-1 of 4, process B shards 2-3 (each a real process, ``bench/split_bot.py``,
on discord.py's sharded client). Game Y is in a server on shard 0 (A's), game X in one
on shard 3 (B's); their players use DMs (which Discord sends to shard 0 only, so A
answers them for both games) and the game channels.

At the end of X's first Dusk, B is killed (SIGKILL). X's moderator closes the Dusk from
a DM, which A answers; A delivers the night's posts and news to X's server and players
by REST while B is down. B is started again under its name (its leases free at once)
and both games are played to their end, X's first Morning closed by its deadline (both
processes' schedulers finding it due at once, the bots' clocks moved past it). Every message the bot meant to send is in
Discord's message log once, and each game's log replays (``wolfhowl verify``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import NEXT_PHASE, GameOptions, TableGame
from bot.sandbox.play_table import GameClock, Seating, TableSpec, Tavern
from discord_emulator import Guild, Message
from discord_emulator import permissions as perm
from tests.e2e.conftest import run

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "bench" / "split_bot.py"
SHARDS = {"A": [0, 1], "B": [2, 3]}
X_PHASE = 3600  # seconds: X's phase length


class BotProcess:
    """One bot process (``bench/split_bot.py``) running ``shard_ids`` of 4."""

    def __init__(self, name: str, tavern: Tavern) -> None:
        self.name = name
        self.tavern = tavern
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        config = self.tavern.config().model_copy(
            update={"shard_count": 4, "shard_ids": SHARDS[self.name], "process_name": f"shard-test-{self.name}"}
        )
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(CHILD), "--api", self.tavern.emu.api_url, "--gateway", self.tavern.emu.gateway_url,
            "--database", self.tavern.database_url, "--config", json.dumps(config.model_dump(mode="json")),
            "--seed", f"shards-{self.name}", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 120)  # a loaded machine
        assert line.strip() == b"ready", f"bot process {self.name} did not start: {line!r}"

    def say(self, line: str) -> None:
        if self.proc is not None and self.proc.returncode is None and self.proc.stdin is not None:
            self.proc.stdin.write(f"{line}\n".encode())

    async def kill(self) -> None:
        """SIGKILL: the process says nothing to anyone, its leases stay with it."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.proc = None

    async def stop(self) -> None:
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        with contextlib.suppress(ConnectionError):
            assert proc.stdin is not None
            proc.stdin.write(b"stop\n")
            await proc.stdin.drain()
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            proc.kill()
            await proc.wait()


class Bots:
    """What the harness asks of ``tavern.bot``, said to every running process."""

    def __init__(self, processes: dict[str, BotProcess]) -> None:
        self.processes = processes

    def wake_dispatcher(self) -> None:
        for p in self.processes.values():
            p.say("wake")

    def wake_scheduler(self) -> None:
        for p in self.processes.values():
            p.say("skip 0")


class ShardedTavern(Tavern):
    """A :class:`Tavern` whose bot is two sharded processes on its database."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.processes = {name: BotProcess(name, self) for name in SHARDS}

    async def start_bot(self, timeout: float = 60.0) -> None:
        from bot.db.session import Database

        await asyncio.gather(*(p.start() for p in self.processes.values()))
        self.bot = Bots(self.processes)
        self.db = Database(self.database_url)  # the harness's own view, to see the outbox drain
        self.starts += 1

    async def stop_bot(self, *, crash: bool = False) -> None:
        await asyncio.gather(*(p.stop() for p in self.processes.values()))
        if self.db is not None:
            await self.db.dispose()
        self.bot = self.db = None

    def seat_on_shard(self, shard: int, spec: TableSpec) -> Seating:
        """A server on ``shard`` of 4 with a moderator role and a table in it."""
        assert self.owner is not None
        guild: Guild = self.emu.create_guild(f"server on shard {shard}", owner=self.owner, shard=(shard, 4))
        self.guild, self.moderators = guild, self.emu.create_role(guild, "Game Master", permissions=perm.MANAGE_GUILD)
        return self.seat_table(spec, f"tavern-{shard}")


@dataclass
class Outcome:
    over: dict[str, bool]
    refusals: list[tuple[str, str, str]]
    server_errors: list[BaseException]
    nonces: Counter[str]
    unmatched: list[str]
    pending: int
    sent: int
    verified: dict[str, str]
    delivered_while_down: int
    dm_players: dict[str, int]
    public: dict[str, list[Message]]
    processes: list[tuple[str, str, str, bool, bool]]  # per run: name, host, shards, stopped, ever connected


async def play_on(game: TableGame, round_no: int, phase: str) -> bool:
    """Play ``game`` from ``phase`` of ``round_no`` to its end; whether it ended."""
    while round_no <= game.options.max_rounds:
        if not await game.next_phase(round_no, phase):
            return True
        await game.play_phase(round_no, phase)
        phase = NEXT_PHASE[phase]
        round_no += phase == "day"
    return False


async def only_held_by(tavern: Tavern, name: str, timeout: float = 60.0) -> None:
    """Wait until every message still to deliver is leased to the process ``name``."""
    from sqlalchemy import func, select

    from bot.db.models import OutboxMessage, Process

    held = select(Process.id).where(Process.name == name)
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        tavern.bot.wake_dispatcher()
        async with tavern.db.read() as s:
            left = (
                await s.execute(
                    select(func.count()).where(
                        OutboxMessage.status == "pending",
                        (OutboxMessage.leased_by.is_(None)) | OutboxMessage.leased_by.not_in(held),
                    )
                )
            ).scalar_one()
        if left == 0:
            return
        assert loop.time() < end, f"{left} messages not delivered by the processes alive"
        await asyncio.sleep(0.1)


async def scenario(database_url: str) -> Outcome:
    from sqlalchemy import select

    from bot.core.outbox import nonce_for
    from bot.db.models import OutboxMessage, Process
    from bot.features.replay.export import export_finished
    from bot.features.replay.verify import verify_log

    async with ShardedTavern(database_url=database_url, clock=GameClock(1.0), seed="shards") as tavern:
        emu = tavern.emu
        # Y's phases outlast the skip of the bots' clocks past X's Morning deadline.
        y_options = GameOptions(day="1d", dusk="1d", morning="1d")
        x_options = GameOptions(day=f"{X_PHASE}s", dusk=f"{X_PHASE}s", morning=f"{X_PHASE}s")
        games = {
            "Y": TableGame(tavern, tavern.seat_on_shard(0, TableSpec(players=6, name_prefix="y-")), y_options, seed="y"),
            "X": TableGame(tavern, tavern.seat_on_shard(3, TableSpec(players=6, name_prefix="x-")), x_options, seed="x"),
        }
        for g in games.values():
            for i, p in enumerate(g.players):  # half the table plays by DM, half in the channel
                p.in_dm = i % 2 == 0
            await g.open()
        x = games["X"]
        x_places = {x.seating.channel.id} | {emu.dm_channel(p.user).id for p in x.players}

        async def play_x() -> tuple[bool, int]:
            for phase in ("day", "dusk"):
                assert await x.next_phase(1, phase)
                await x.play_phase(1, phase, x.players)  # the players' part; the moderator's next
                if phase == "day":
                    assert not (await x.moderator.advance()).error
            await tavern.processes["B"].kill()
            before = len(emu.messages)
            closed = await x.moderator.command("phase advance", in_dm=True)  # A answers: a DM
            assert not closed.error, closed.text
            assert await x.next_phase(1, "morning")  # posted in B's server by A, by REST
            await only_held_by(tavern, "shard-test-B")  # the rest is out; B's leases wait for it
            down = sum(1 for m in emu.messages[before:] if m.channel_id in x_places and m.author.bot)
            await tavern.processes["B"].start()
            # The Morning's deadline closes it: both processes' schedulers see it due at once.
            await x.play_phase(1, "morning", x.players)
            for p in tavern.processes.values():
                p.say(f"skip {X_PHASE + 5}")
            return await play_on(x, 2, "day"), down

        (x_over, down), y_report = await asyncio.gather(play_x(), games["Y"].play())
        for g in games.values():
            await g.wait_post(
                lambda m: any(reader.match("post.seed", str(e.get("description") or "")) for e in m.embeds), "the seed"
            )
        await tavern.drained()

        sent_nonces = Counter(str(m.nonce) for m in emu.messages if m.author.bot and m.nonce is not None)
        by_id = {m.id: m for m in emu.messages}
        unmatched, pending, sent = [], 0, 0
        async with tavern.db.read() as s:
            for row in (await s.execute(select(OutboxMessage))).scalars():
                if row.status == "pending":
                    pending += 1
                elif row.status == "sent":
                    sent += 1
                    m = by_id.get(row.discord_message_id or 0)
                    if m is None or m.nonce != nonce_for(row.idempotency_key):
                        unmatched.append(row.idempotency_key)
            runs = [
                (p.name, p.host, p.shards, p.stopped_at is not None, p.connected_at is not None)
                for p in (await s.execute(select(Process).order_by(Process.id))).scalars()
            ]
        verified = {}
        for name, g in games.items():
            assert g.game_id is not None
            report = verify_log(await export_finished(tavern.db, g.game_id))
            verified[name] = "ok" if report.ok else report.summary()
        stats = [g.stats for g in games.values()]
        return Outcome(
            over={"X": x_over, "Y": y_report.over},
            refusals=[r for s in stats for r in s.refusals],
            server_errors=list(emu.server_errors),
            nonces=sent_nonces,
            unmatched=unmatched,
            pending=pending,
            sent=sent,
            verified=verified,
            delivered_while_down=down,
            dm_players={name: sum(1 for p in g.players if p.in_dm) for name, g in games.items()},
            public={name: list(tavern.public(g.seating.channel)) for name, g in games.items()},
            processes=runs,
        )


@pytest.fixture(scope="module")
def outcome(e2e_pg_url: str) -> Outcome:
    return run(scenario(e2e_pg_url))


def test_both_games_end_with_every_interaction_answered(outcome: Outcome) -> None:
    assert outcome.over == {"X": True, "Y": True}
    # Nobody was refused; an answer later than Discord's 3 s (a busy machine) is counted
    # in ``failed`` and retried by the person, as in any game here, and not checked.
    assert outcome.refusals == [] and outcome.server_errors == []
    # Both ways of playing were used at each table.
    assert outcome.dm_players == {"X": 3, "Y": 3}


def test_every_message_went_out_exactly_once(outcome: Outcome) -> None:
    assert outcome.pending == 0
    # Each message the outbox marks sent is the one Discord holds under its nonce.
    assert outcome.sent > 100 and outcome.unmatched == []
    assert sum(outcome.nonces.values()) >= outcome.sent
    twice = {n: c for n, c in outcome.nonces.items() if c > 1}
    assert not twice, twice
    for name, public in outcome.public.items():
        texts = Counter(reader.message_text(m) for m in public if not (m.content or "").startswith("📬"))
        assert max(texts.values()) == 1, (name, [t for t, c in texts.items() if c > 1])


def test_the_other_process_delivered_while_one_was_down(outcome: Outcome) -> None:
    assert outcome.delivered_while_down > 1


def test_each_game_log_replays(outcome: Outcome) -> None:
    assert outcome.verified == {"X": "ok", "Y": "ok"}


def test_one_row_per_run_says_who_runs_which_shards(outcome: Outcome) -> None:
    """The killed B's row was marked over by its restart under the same name; each run
    beat while connected (what `wolfhowl health` reads) under this host and its shards."""
    from bot.core.processes import this_host

    assert sorted(outcome.processes) == [
        ("shard-test-A", this_host(), "0-1/4", False, True),
        ("shard-test-B", this_host(), "2-3/4", False, True),
        ("shard-test-B", this_host(), "2-3/4", True, True),
    ]
