"""A slow game on the local Discord: day-long phases, the game clock moved to each
deadline instead of waiting a day, some players quiet and a standby who steps in when
the bot offers a seat. Used by ``wolfhowl demo --absent`` and the e2e tests."""

from __future__ import annotations

from typing import Any

from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import NEXT_PHASE, GameOptions, TableGame
from bot.sandbox.play_table import GameClock, Tavern
from bot.sandbox.players import Player
from discord_emulator import Message

# Day-long phases, a reminder an hour before each deadline, the phase closed as soon as
# everyone has sent (or at its deadline), the scheduler doing it all.
SLOW: dict[str, Any] = {"day": "1d", "dusk": "1d", "morning": "12h", "reminder": "1h", "advance": "deadline", "early_advance": True}


def slow_options(**changes: Any) -> GameOptions:
    return GameOptions(**(SLOW | changes))


async def to_deadline(
    tavern: Tavern, clock: GameClock, game_id: int, before: float = 0.0, *, phase: tuple[int, str] | None = None
) -> None:
    """Move the clock to ``before`` seconds ahead of the open phase's deadline (a day
    passes in an instant) and let the scheduler look. ``phase`` (round, phase): only if
    that phase is still the open one. A phase everyone has sent in closes on its own a
    moment later; by then the next phase may have opened, and a day skipped for the
    phase before would run out the new one's clock before anyone could play it."""
    from bot.features.lobby.games import get_game

    info = await get_game(tavern.db, game_id)
    if phase is not None and (info.round, info.phase) != phase:
        return
    if info.deadline is not None:
        clock.skip(max(0.0, (info.deadline - clock()).total_seconds() - before + 0.5))
    tavern.bot.wake_scheduler()


def seat_offer(tavern: Tavern, standby: Player) -> tuple[Message, str] | None:
    """The latest DM offering ``standby`` a seat, with its Accept button's custom id."""
    for m in reversed(tavern.dms(standby.user)):
        for cid in m.custom_ids():
            if cid.startswith("wh:offer:"):
                return m, cid
    return None


async def quiet_phase(tavern: Tavern, clock: GameClock, game: TableGame, round_no: int, phase: str, active: list[Player]) -> bool:
    """Only ``active`` play ``phase``; the deadline closes it. False if the game ended."""
    assert game.game_id is not None
    if not await game.next_phase(round_no, phase):
        return False
    await game.play_phase(round_no, phase, active)
    await to_deadline(tavern, clock, game.game_id, phase=(round_no, phase))
    return True


async def play_on(tavern: Tavern, clock: GameClock, game: TableGame, players: list[Player], round_no: int, phase: str) -> bool:
    """``players`` play every phase from ``phase`` of ``round_no`` to the end; a phase
    not closed early (someone could not send) closes at its deadline. True if it ended."""
    assert game.game_id is not None
    while round_no <= game.options.max_rounds:
        if not await game.next_phase(round_no, phase):
            await game.wait_post(
                lambda m: any(reader.match("post.seed", str(e.get("description") or "")) for e in m.embeds), "the seed"
            )
            return True
        await game.play_phase(round_no, phase, players)
        await to_deadline(tavern, clock, game.game_id, phase=(round_no, phase))
        phase = NEXT_PHASE[phase]
        round_no += phase == "day"
    return False


async def slow_game(tavern: Tavern, clock: GameClock, game: TableGame, standby: Player, quiet: list[Player]) -> bool:
    """The whole story: ``standby`` stands by, the ``quiet`` send nothing from the first
    Day; after the second miss the bot offers the first seat to the standby, who
    accepts; nobody is left for the second, removed. The rest play on to the end."""
    await game.open()
    assert game.game_id is not None
    standby.game_id = game.game_id
    await standby.command("standby join", in_dm=False)
    active = [p for p in game.players if p not in quiet]
    for round_no, phase in ((1, "day"), (1, "dusk")):
        if not await quiet_phase(tavern, clock, game, round_no, phase, active):
            return True
    await tavern.emu.wait_for(lambda: seat_offer(tavern, standby) is not None, 30, "the seat offer")
    found = seat_offer(tavern, standby)
    assert found is not None
    await standby.click(*found)
    # What the hand-over writes (the replacement line; the other seat's removal, nobody
    # being left to offer it to) reaches the table before the Morning is played, as the
    # hours a slow game leaves between them would let it.
    await tavern.drained()
    return await play_on(tavern, clock, game, [*active, standby], 1, "morning")
