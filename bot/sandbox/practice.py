"""One scripted person's practice game against the AI, in their DM with the bot.

The person is a :class:`~bot.sandbox.players.Player` whose game channel is their DM: they
start with ``/practice start`` (in the DM, or in a server channel), read the phase posts,
their sheet and their news from the DM, and play each phase as soon as it opens; the
AI seats have sent already, so each phase closes as soon as the person has sent.
``wolfhowl demo --practice`` and the e2e tests play it."""

from __future__ import annotations

from typing import Any

from bot.sandbox import play_reader as reader
from bot.sandbox.people import Reply, Stats
from bot.sandbox.play_table import Cursor, GameClock, Tavern
from bot.sandbox.players import Player
from discord_emulator import Message, User

NEXT = {"day": ("dusk", 0), "dusk": ("morning", 0), "morning": ("day", 1)}


class Practiser:
    """One person practising: starts the game, then plays it phase by phase."""

    def __init__(self, tavern: Tavern, user: User, *, seed: str = "practice", stats: Stats | None = None) -> None:
        self.tavern = tavern
        self.user = user
        self.dm = tavern.emu.dm_channel(user)
        self.player = Player(tavern, user, self.dm, stats or Stats(), seed=seed, in_dm=True, lean=True)
        bot_id = tavern.emu.bot_user.id
        self._posts = Cursor(tavern.index, self.dm.id, lambda m: m.author.id == bot_id and m.interaction_id is None)
        self.posts: list[Message] = []  # every message the bot sent to the DM on its own
        self.phases: list[tuple[str, int]] = []  # the phases played, in order
        self.game_id: int | None = None

    async def start(self, options: dict[str, Any] | None = None, *, channel: Any = None) -> Reply:
        """``/practice start`` with ``options``, in the DM (or in ``channel``, a server's)."""
        if channel is None:
            reply = await self.player.command("practice start", options, in_dm=True)
        else:
            self.player.channel = channel
            reply = await self.player.command("practice start", options, in_dm=False)
            self.player.channel = self.dm
        started = [got for line in reply.text.splitlines() if (got := reader.match("practice.started", line))]
        self.game_id = int(started[0]["game"]) if started and not reply.error else None
        self.player.game_id = self.game_id
        return reply

    async def wait_post(self, predicate: Any, what: str, timeout: float = 60.0) -> Message:
        def find() -> Message | None:
            self.posts.extend(self._posts.new())
            return next((m for m in reversed(self.posts) if predicate(m)), None)

        return await self.tavern.index.wait(find, timeout, what)

    async def play_phase(self, round_no: int, phase: str, timeout: float = 60.0) -> bool:
        """Wait for (round_no, phase) to open and play it; False when the game ended first."""
        post = await self.wait_post(
            lambda m: reader.phase_post(m) == (phase, round_no) or reader.is_game_over(m), f"{phase} {round_no} (or the end)", timeout
        )
        if reader.is_game_over(post):
            return False
        self.phases.append((phase, round_no))
        await self.player.turn(phase, round_no)
        if phase == "dusk":
            await self._wait_out_grace()
        return True

    async def _wait_out_grace(self) -> None:
        """Move the game clock to the Dusk's early close, as if the person then waited out
        its grace (``PRACTICE_GRACE``) rather than add a piece: only a :class:`GameClock`
        moves, and only to a close within the grace (the person done)."""
        from bot.features.lobby.games import get_game
        from bot.features.practice.practice import PRACTICE_GRACE

        clock, db = self.tavern.clock, self.tavern.db
        if not isinstance(clock, GameClock) or db is None or self.game_id is None:
            return
        info = await get_game(db, self.game_id)
        if info.phase == "dusk" and info.deadline is not None:
            gap = (info.deadline - clock()).total_seconds()
            if 0 < gap <= PRACTICE_GRACE:
                clock.skip(gap + 0.1)

    async def play(self, *, rounds: int = 30, stop_after: tuple[str, int] | None = None, timeout: float = 60.0) -> bool:
        """Play from Day 1 on (or from where :attr:`phases` left off) to the end; True if
        the game ended. ``stop_after``: return (False) once that phase has been played."""
        phase, round_no = ("day", 1) if not self.phases else self._after(*self.phases[-1])
        while round_no <= rounds:
            if not await self.play_phase(round_no, phase, timeout):
                await self.wait_post(reader.is_game_over, "the end", timeout)
                await self.player.read()
                return True
            if stop_after == (phase, round_no):
                return False
            phase, round_no = self._after(phase, round_no)
        return False

    @staticmethod
    def _after(phase: str, round_no: int) -> tuple[str, int]:
        nxt, step = NEXT[phase]
        return nxt, round_no + step
