"""A game on the local Discord for a bot that runs elsewhere: another process, a container.

``python -m bot.cli.external --port 8765`` serves the emulator on 127.0.0.1:8765,
prints the settings that point ``wolfhowl run`` at it, and waits for a bot to connect.
Then a moderator opens a game at a table of scripted players, they join, the game starts,
each player must get a character sheet, Day 1 is played and closed, and the game is played
to its end (the moderator closes each phase once everyone has acted). With ``--restart``
it waits, once Dusk 1 has opened, for the bot to stop and connect again (``docker stop``,
``docker start``) and plays on the same game. Exit status 0 when all of that happened, 1
otherwise (the step that failed is printed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import TableSpec, Tavern


@dataclass(frozen=True)
class ExternalOptions:
    """Where to serve the emulator, the table's size, whether to wait for a restart, and
    how long to wait for each step (seconds)."""

    host: str = "127.0.0.1"
    port: int = 8765
    players: int = 6
    restart: bool = False
    timeout: float = 300.0


class ExternalTavern(Tavern):
    """A :class:`Tavern` whose bot is not started here: "starting" it waits for a new
    session to identify (a new process, not a resumed one) and for its commands."""

    def __init__(self, *, connect_timeout: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.connect_timeout = connect_timeout

    def identified(self) -> int:
        return sum(c.identified for c in self.emu.connections)

    async def start_bot(self, timeout: float = 60.0) -> None:
        if self.starts == 0:
            emu = self.emu
            print(f"WOLFHOWL_TOKEN={emu.token}")
            print(f"WOLFHOWL_API_BASE={emu.api_url}")
            print(f"WOLFHOWL_GATEWAY_URL={emu.gateway_url}", flush=True)
            say("waiting for the bot to connect")
        before = self.identified()
        await self.watcher.until(
            lambda: self.identified() > before and self.emu.registered_commands(),
            self.connect_timeout,
            "the bot to connect and register its commands",
        )
        self.starts += 1

    async def stop_bot(self, *, crash: bool = False) -> None:
        """Stopping the bot is the operator's to do."""


def say(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)


async def play(args: ExternalOptions) -> int:
    """Serve, wait for the bot, play the game; the exit status."""
    tavern = ExternalTavern(
        connect_timeout=args.timeout,
        emulator_options={"host": args.host, "port": args.port, "heartbeat_interval": 5.0},
    )
    try:
        async with tavern:
            ok = await game(tavern, args)
    except (TimeoutError, RuntimeError) as exc:
        say(f"FAILED: {exc}")
        return 1
    say("OK" if ok else "FAILED")
    return 0 if ok else 1


async def game(tavern: ExternalTavern, args: ExternalOptions) -> bool:
    say(f"bot connected; {len(tavern.emu.registered_commands())} commands registered")
    seating = tavern.seat_table(TableSpec(players=args.players))
    options = GameOptions(day="1h", dusk="1h", morning="1h", phase_timeout=args.timeout)
    table = TableGame(tavern, seating, options, seed="external")
    await table.open()
    say(f"game {table.game_id} created; {len(table.players)} players joined; started")
    await tavern.watcher.until(
        lambda: all(
            any(reader.read_sheet(m) for m in tavern.dms(p.user)) for p in table.players
        ),
        args.timeout,
        "a character sheet for every player",
    )
    say(f"character sheets delivered by DM to all {len(table.players)} players")
    if not await table.next_phase(1, "day"):
        return False
    await table.play_phase(1, "day")
    if not await table.next_phase(1, "dusk"):
        return False
    say("Day 1 played and closed by the moderator; Dusk 1 opened")
    if args.restart:
        say("stop the bot now, then start it again")
        await tavern.start_bot()
        say("the bot connected again; the game goes on")
    report = await table.play(1, "dusk")
    if not report.over:
        say(f"FAILED: no end after {report.rounds} rounds")
        return False
    say(f"game {table.game_id} played to its end in round {report.rounds}: {' & '.join(report.winners)} won")
    scoreboard = next(m for m in tavern.public(seating.channel) if reader.is_game_over(m))
    if not any(a.data.startswith(b"\x89PNG") for a in scoreboard.attachments):
        say("FAILED: the scoreboard came without its chart")
        return False
    say("the scoreboard came with its chart")
    # The endings are the bot's last messages: once each player has theirs, nothing waits.
    await tavern.watcher.until(
        lambda: all(any(reader.is_ending(m) for m in tavern.dms(p.user)) for p in table.players),
        args.timeout,
        "a private ending for every player",
    )
    say(f"every player's ending delivered by DM ({len(table.players)})")
    if tavern.emu.server_errors or table.stats.failed:
        say(
            f"{table.stats.failed} interactions unanswered; "
            f"emulator errors: {tavern.emu.server_errors}"
        )
        return False
    return True

