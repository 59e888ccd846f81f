"""What a moderator may see of the open phase (``/mod status``): who has sent which kinds
of submission, never what; each seat's misses; the standby list."""

from __future__ import annotations

from bot.core import table
from bot.core.table import Table
from bot.core.types import PhaseStatus, check_id
from bot.db.session import Database
from bot.features.standbys.queue import standby_list


async def phase_status(db: Database, game_id: int, viewer_id: int | None = None) -> PhaseStatus:
    """The public view of ``game_id`` and, for a running or paused game, the kinds of
    submission each seat has sent in the open phase (kinds only, never their content);
    ``viewer_played``: ``viewer_id`` holds or has held a seat in it (replaced or removed
    since), so knows a seat's class and faction."""
    async with table.of(db, game_id, writing=False) as t:
        return await status_of(t, viewer_id)


async def status_of(t: Table, viewer_id: int | None = None) -> PhaseStatus:
    """:func:`phase_status` on the game's table."""
    played = viewer_id is not None and await t.has_played(check_id(viewer_id, "user"))
    sent: dict[int, list[str]] = {}
    done: set[int] = set()
    if t.game.status in ("running", "paused") and t.game.phase:
        for row in await t.phase_rows():
            sent.setdefault(row.seat, []).append(row.kind)
        done = await t.done_seats()
    # AI seats (no user) never miss: only the people at the table are listed.
    misses = {seat: (h.misses_in_row, h.misses_total) for seat, h in (await t.holders()).items() if h.user_id is not None}
    standbys: tuple[str, ...] = ()
    if t.game.status in ("lobby", "running", "paused"):
        standbys = tuple(await standby_list(t.session, t.game.id))
    return PhaseStatus(
        await t.info(), {seat: tuple(kinds) for seat, kinds in sent.items()}, frozenset(done), played, misses, standbys
    )
