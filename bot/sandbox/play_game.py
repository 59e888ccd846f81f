"""One whole game at one table: the moderator opens it, the players join, and phase after
phase every living player does its part; then the moderator closes the phase (as soon as
everyone has acted), or the phase's deadline does.

The only coordination outside Discord is the one a real table has in chat: the moderator
closes a phase once the players have said they are done (here: their turn coroutines
have returned). Everything the players and the moderator do goes through the emulator.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.sandbox import play_reader as reader
from bot.sandbox.people import Moderator, Stats
from bot.sandbox.play_table import Cursor, GameClock, Seating, Tavern
from bot.sandbox.players import Player
from discord_emulator import Message

NEXT_PHASE = {"day": "dusk", "dusk": "morning", "morning": "day"}


@dataclass
class GameOptions:
    """How the moderator sets the game up, and who closes phases.

    ``advance``: ``"moderator"`` (``/phase advance`` once everyone has acted) or
    ``"deadline"`` (the bot's scheduler closes each phase at its deadline, or early when
    everyone has sent and ``early_advance`` is on)."""

    language: str = "en-US"
    day: str = "2m"
    dusk: str = "3m"
    morning: str = "2m"
    reminder: str = "0"
    early_advance: bool = False
    reveal_on_death: bool = False
    quiet_dead: bool | None = None
    vote_tie: str | None = None
    # Further settings, by option name (``{"departures": "morning"}``, a house rule, chosen
    # with /mod house_rules; ``{"gallery": "late"}`` with /mod settings); the rest keep
    # their default.
    house_rules: dict[str, str] = field(default_factory=dict)
    advance: str = "moderator"
    max_rounds: int = 40
    phase_timeout: float = 120.0
    # Players who send the fewest interactions (typed ids, no autocomplete, no panel):
    # for checks that need many games rather than every way of playing.
    lean: bool = False
    # Moderator mode: the game clock skips to just before each phase's deadline before the
    # moderator closes it, as if the table took its time; the posts then read as a real
    # game's (each phase closing after the one before), not minutes apart out of order.
    close_near_deadline: bool = False
    # Seats the bot's AI fills beside the scripted players (they close no phase: use
    # ``advance="deadline"`` with ``early_advance``).
    ai_seats: int = 0

    def lobby_options(self) -> dict[str, Any]:
        """Every setting the moderator opens the game with, by option name (for
        :meth:`Moderator.create`: ``/mod create`` takes those it offers, ``/mod settings``
        and ``/mod house_rules`` the rest, in the lobby)."""
        out: dict[str, Any] = {
            "day": self.day, "dusk": self.dusk, "morning": self.morning, "reminder": self.reminder,
            "early_advance": self.early_advance, "reveal_on_death": self.reveal_on_death,
            "language": self.language,
        }  # fmt: skip
        if self.quiet_dead is not None:
            out["quiet_dead"] = self.quiet_dead
        if self.vote_tie is not None:
            out["vote_tie"] = self.vote_tie
        if self.ai_seats:  # how many seats the AI fills
            out["ai_seats"] = self.ai_seats
        return out | self.house_rules


@dataclass
class GameReport:
    game_id: int | None
    winners: list[str]
    rounds: int
    phases: int
    seconds: float
    over: bool


class TableGame:
    """A moderator and players at one :class:`Seating`, playing one game."""

    def __init__(
        self,
        tavern: Tavern,
        seating: Seating,
        options: GameOptions | None = None,
        *,
        seed: str = "0",
        stats: Stats | None = None,
        on_phase: Callable[[int, str], None] | None = None,
    ) -> None:
        self.tavern = tavern
        self.seating = seating
        self.options = options or GameOptions()
        self.stats = stats or Stats()
        self.on_phase = on_phase
        self.moderator = Moderator(tavern, seating.moderator, seating.channel, self.stats)
        self.players = [
            Player(tavern, u, seating.channel, self.stats, seed=seed, lean=self.options.lean)
            for u in seating.players
        ]
        bot_id = tavern.emu.bot_user.id
        self._posts = Cursor(
            tavern.index, seating.channel.id, lambda m: m.author.id == bot_id and not m.ephemeral
        )
        self._seen: list[Message] = []
        self.game_id: int | None = None
        self.round, self.phase = 0, "lobby"

    # -- the lobby -------------------------------------------------------------------
    async def open(self) -> None:
        """Create the game, let everyone join (in seat order), start it."""
        created = await self.moderator.create(**self.options.lobby_options())
        if created.error or self.moderator.game_id is None:
            raise RuntimeError(f"{self.moderator.journal[-1].strip()} was refused: {created.text}")
        self.game_id = self.moderator.game_id
        lobby = await self.wait_post(
            lambda m: f"wh:join:{self.game_id}" in m.custom_ids(), "the lobby post"
        )
        for p in self.players:
            joined = await p.join(lobby)
            if joined.error:
                raise RuntimeError(f"{p.name} could not join: {joined.text}")
            p.game_id = self.game_id
        started = await self.moderator.start()
        if started.error:
            raise RuntimeError(f"/mod start was refused: {started.text}")

    # -- waiting on the channel ------------------------------------------------------
    async def wait_post(
        self, predicate: Callable[[Message], bool], what: str, timeout: float = 30.0
    ) -> Message:
        def find() -> Message | None:
            self._seen.extend(self._posts.new())
            return next((m for m in reversed(self._seen) if predicate(m)), None)

        return await self.tavern.index.wait(find, timeout, what)

    async def next_phase(self, round_no: int, phase: str) -> bool:
        """Wait for the post opening (round_no, phase); False when the game ended instead."""
        post = await self.wait_post(
            lambda m: reader.phase_post(m) == (phase, round_no) or reader.is_game_over(m),
            f"{phase} {round_no} (or the end)",
            self.options.phase_timeout,
        )
        return not reader.is_game_over(post)

    # -- the game --------------------------------------------------------------------
    async def play_phase(
        self, round_no: int, phase: str, players: list[Player] | None = None
    ) -> None:
        """Every living player (or ``players``) does its part; then, in moderator mode,
        the moderator closes the phase (after a look at /mod status at Dusk, the phase
        where people are most often slow)."""
        chosen = self.players if players is None else players
        await self.tavern.news_delivered()
        await asyncio.gather(*(p.turn(phase, round_no) for p in chosen if p.alive and not p.over))
        if self.options.advance == "deadline" and self.options.ai_seats and players is None:
            await self.skip_to_ai_turns()
        if self.options.advance == "moderator" and players is None:
            if phase == "dusk":
                await self.moderator.status()
            if self.options.close_near_deadline:
                await self.skip_to_deadline()
            await self.moderator.advance()

    async def skip_to_ai_turns(self) -> None:
        """Move the game clock to the moment the open phase's last AI seat plays (each
        has its moment inside the phase, drawn from the seed), as if the table took its
        time: once the scripted players have sent, the AI's moments come at once rather
        than in real time, and the phase closes early, everyone having sent. Only a
        :class:`GameClock` can be moved; with any other clock, or none, nothing changes."""
        from bot.features.ai_seats.play import last_due

        clock, db = self.tavern.clock, self.tavern.db
        if not isinstance(clock, GameClock) or db is None or self.game_id is None:
            return
        due = await last_due(db, self.game_id)
        if due is not None and (gap := (due - clock()).total_seconds()) > 0:
            clock.skip(gap)

    async def skip_to_deadline(self, before: float = 30.0) -> None:
        """Move the game clock to ``before`` seconds ahead of the open phase's deadline (only
        a :class:`GameClock` can be moved; with any other clock, or none, nothing changes).
        Far enough ahead that the moderator's ``/phase advance`` comes before the deadline
        however slow the machine: were the scheduler to close the phase first, the advance
        would cut the next phase short, and the same seed would play another game."""
        from bot.features.lobby.games import get_game

        clock, db = self.tavern.clock, self.tavern.db
        if not isinstance(clock, GameClock) or db is None or self.game_id is None:
            return
        info = await get_game(db, self.game_id)
        if info.deadline is not None and (gap := (info.deadline - clock()).total_seconds() - before) > 0:
            clock.skip(gap)

    async def play(self, round_no: int = 1, phase: str = "day") -> GameReport:
        """Play the game to its end from ``phase`` of ``round_no`` (opening it first
        unless :meth:`open` was called)."""
        t0 = time.perf_counter()
        if self.game_id is None:
            await self.open()
        phases = 0
        over = False
        while round_no <= self.options.max_rounds:
            if not await self.next_phase(round_no, phase):
                over = True
                break
            self.round, self.phase = round_no, phase
            if self.on_phase is not None:
                self.on_phase(round_no, phase)
            phases += 1
            await self.play_phase(round_no, phase)
            phase = NEXT_PHASE[phase]
            if phase == "day":
                round_no += 1
        winners: list[str] = []
        if over:
            end = await self.wait_post(reader.is_game_over, "the scoreboard")
            winners = reader.winners(end)
            await self.wait_post(
                lambda m: any(
                    reader.match("post.seed", str(e.get("description") or "")) for e in m.embeds
                ),
                "the seed",
            )
            for p in self.players:
                await p.read()
        return GameReport(self.game_id, winners, round_no, phases, time.perf_counter() - t0, over)
