"""A player's command in one unit of work (``service.submit_here``): the game is found
by its channel (or the caller's one live game), locked and read once; the command's
arguments are resolved against the caller's view inside that transaction; a refusal
while resolving them stores nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import event, select

import engine
from bot.db.models import Submission
from bot.db.session import Database
from bot.service import action_piece, advance_phase, player_view, submit_here
from bot.service.errors import (
    GameNotStartedError,
    NoActiveGameError,
    NotInGameError,
    RuleRefusedError,
)
from tests.service.helpers import CHANNEL, lobby, started, user


class Unknown(Exception):
    """What a command raises for an argument it cannot resolve."""


async def _stored(db: Database, game_id: int) -> list[tuple[int, str, dict]]:
    async with db.read() as s:
        rows = (await s.execute(select(Submission.seat, Submission.kind, Submission.payload).where(Submission.game_id == game_id))).all()
    return [tuple(r) for r in rows]


async def test_a_command_reads_the_view_and_sends_in_one_transaction(db: Database) -> None:
    game_id = await started(db, 6, early_advance=False)
    seen = []
    statements: list[str] = []

    def note(conn: object, cursor: object, statement: str, *args: object) -> None:
        statements.append(statement)

    def ask(pv):
        seen.append(pv)
        return engine.GrailNumber(42 if pv.sent == {} else 7)

    event.listen(db.engine.sync_engine, "before_cursor_execute", note)
    try:
        receipt = await submit_here(db, user(1).id, CHANNEL, ask)
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", note)
    assert seen[0].game.id == game_id and seen[0].seat == 1 and seen[0].sheet is not None
    assert receipt.submission == {"kind": "grail", "number": 42}
    assert receipt.view is not None and receipt.view.sent == {"grail": {"kind": "grail", "number": 42}}
    assert receipt.view == await player_view(db, user(1).id, game_id)
    games_read = [s for s in statements if s.lstrip().upper().startswith("SELECT") and "FROM games" in s]
    assert len(games_read) == 1, statements  # the game, locked, once: no separate view read

    # A second command sees the first in its view.
    again = await submit_here(db, user(1).id, CHANNEL, ask)
    assert seen[1].sent == {"grail": {"kind": "grail", "number": 42}}
    assert again.submission["number"] == 7 and again.replaced


async def test_without_a_game_in_the_channel_the_callers_live_game_is_used(db: Database) -> None:
    game_id = await started(db, 6)
    other = await started(db, 6, channel=CHANNEL + 1, first=20)
    receipt = await submit_here(db, user(2).id, None, lambda pv: engine.GrailNumber(10))  # a DM
    assert receipt.game_id == game_id
    elsewhere = await submit_here(db, user(3).id, 999_999, lambda pv: engine.GrailNumber(11))  # a channel without a game
    assert elsewhere.game_id == game_id
    with pytest.raises(NotInGameError):  # another game's channel: not theirs
        await submit_here(db, user(3).id, CHANNEL + 1, lambda pv: engine.GrailNumber(12))
    with pytest.raises(NoActiveGameError):
        await submit_here(db, 5555, None, lambda pv: engine.GrailNumber(12))
    assert {(seat, kind) for seat, kind, _ in await _stored(db, game_id)} == {(2, "grail"), (3, "grail")}
    assert await _stored(db, other) == []


async def test_a_refusal_while_resolving_the_arguments_stores_nothing(db: Database) -> None:
    game_id = await started(db, 6)

    def ask(pv):
        raise Unknown(pv.seat)

    with pytest.raises(Unknown):
        await submit_here(db, user(1).id, CHANNEL, ask)
    assert await _stored(db, game_id) == []
    with pytest.raises(RuleRefusedError):  # the engine refuses a number out of range
        await submit_here(db, user(1).id, CHANNEL, lambda pv: engine.GrailNumber(101))
    assert await _stored(db, game_id) == []


async def test_a_piece_amends_what_was_stored(db: Database) -> None:
    game_id = await started(db, 6)
    await advance_phase(db, game_id)  # Dusk
    await submit_here(db, user(1).id, CHANNEL, lambda pv: action_piece(engine.Action("attack", (2,))))
    again = await submit_here(db, user(1).id, CHANNEL, lambda pv: action_piece(engine.Action("attack", (3,))))
    assert again.replaced
    assert [(a["skill"], a["targets"]) for a in again.submission["actions"]] == [("attack", [3])]


async def test_in_the_lobby_nothing_is_asked(db: Database) -> None:
    await lobby(db, 6)
    asked = []
    with pytest.raises(GameNotStartedError):
        await submit_here(db, user(1).id, CHANNEL, lambda pv: asked.append(pv) or engine.GrailNumber(5))
    assert asked == []
