"""The table as everyone at it knows it (``/table``): the seats and their names, who is
alive or has departed as announced, the phase and its deadline, and how many have sent
the phase's main submission (the count the public reminder posts). Read from the public
view of the game (``Table.info``) and the same count as the reminder's: never a class, a
faction, an HP, nor a departure held for the Morning."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core import policy, table
from bot.core.policy import Action, Standing
from bot.core.steps import table_living
from bot.core.types import GameInfo
from bot.db.session import Database


@dataclass(frozen=True, slots=True)
class TableView:
    """``game``: the public view; ``sent`` of ``living``: the seats the table takes for
    living that have sent the open phase's main submission (None when no phase is open)."""

    game: GameInfo
    sent: int | None = None
    living: int = 0


async def table_view(db: Database, game_id: int, standing: Standing) -> TableView:
    """The public table of ``game_id``, for one who can see its channel or sits at it
    (the access policy's ``see_table``), whatever game id the request carried."""
    async with table.of(db, game_id, writing=False) as t:
        game = t.game
        policy.require(Action.SEE_TABLE, standing, game, await t.member(standing.user_id))
        info = await t.info()
        if game.status not in ("running", "paused") or not game.phase:
            return TableView(info)
        living = table_living(t.state)
        done = await t.done_seats()
        return TableView(info, sum(1 for seat in living if seat in done), len(living))
