"""A player's command in one unit of work (``service.handle``): the game is found by its
channel (or the caller's one live game), locked and read once; what was typed is
resolved against the caller's view inside that transaction; a refusal while resolving
stores nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import event, select

from bot.core.advance import advance_phase
from bot.core.errors import (
    GameNotStartedError,
    NoActiveGameError,
    NotInGameError,
    ResolveError,
    RuleRefusedError,
)
from bot.core.views import player_view
from bot.db.models import Submission
from bot.db.session import Database
from bot.features.play.commands import ActSkill, AddAction, AddGuess, SendGrail, handle
from tests.service.helpers import CHANNEL, lobby, started, user


async def _stored(db: Database, game_id: int) -> list[tuple[int, str, dict]]:
    async with db.read() as s:
        rows = (await s.execute(select(Submission.seat, Submission.kind, Submission.payload).where(Submission.game_id == game_id))).all()
    return [tuple(r) for r in rows]


async def test_a_typed_name_is_resolved_and_sent_in_one_transaction(db: Database) -> None:
    game_id = await started(db, 6, early_advance=False)
    await advance_phase(db, game_id)  # Dusk
    statements: list[str] = []

    def note(conn: object, cursor: object, statement: str, *args: object) -> None:
        statements.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", note)
    try:
        receipt = await handle(db, AddAction("attack", ("#2",)), user(1).id, CHANNEL)
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", note)
    assert [(a["skill"], a["targets"]) for a in receipt.submission["actions"]] == [("attack", [2])]  # "#2": seat 2
    assert receipt.view is not None and receipt.view == await player_view(db, user(1).id, game_id)
    games_read = [s for s in statements if s.lstrip().upper().startswith("SELECT") and "FROM games" in s]
    assert len(games_read) == 1, statements  # the game, locked, once: no separate view read

    # A second piece amends what the first stored.
    again = await handle(db, AddAction("attack", ("3",)), user(1).id, CHANNEL)
    assert again.replaced
    assert [(a["skill"], a["targets"]) for a in again.submission["actions"]] == [("attack", [3])]


async def test_without_a_game_in_the_channel_the_callers_live_game_is_used(db: Database) -> None:
    game_id = await started(db, 6)
    other = await started(db, 6, channel=CHANNEL + 1, first=20)
    receipt = await handle(db, SendGrail(10), user(2).id, None)  # a DM
    assert receipt.game_id == game_id
    elsewhere = await handle(db, SendGrail(11), user(3).id, 999_999)  # a channel without a game
    assert elsewhere.game_id == game_id
    with pytest.raises(NotInGameError):  # another game's channel: not theirs
        await handle(db, SendGrail(12), user(3).id, CHANNEL + 1)
    with pytest.raises(NoActiveGameError):
        await handle(db, SendGrail(12), 5555, None)
    assert {(seat, kind) for seat, kind, _ in await _stored(db, game_id)} == {(2, "grail"), (3, "grail")}
    assert await _stored(db, other) == []


async def test_what_names_nothing_is_refused_and_nothing_stored(db: Database) -> None:
    game_id = await started(db, 6)
    await advance_phase(db, game_id)  # Dusk
    with pytest.raises(ResolveError) as err:
        await handle(db, AddAction("attack", ("nobody at all",)), user(1).id, CHANNEL)
    assert err.value.key == "reply.error.player_unknown" and err.value.params == {"text": "nobody at all"}
    with pytest.raises(ResolveError) as err:
        await handle(db, ActSkill(" juggling "), user(1).id, CHANNEL)
    assert err.value.key == "reply.error.skill_unknown" and err.value.params == {"skill": " juggling "}
    with pytest.raises(ResolveError) as err:
        await handle(db, AddGuess("#2", " a teapot "), user(1).id, CHANNEL)
    assert err.value.key == "reply.error.guess_unknown" and err.value.params == {"text": "a teapot"}
    assert await _stored(db, game_id) == []


async def test_a_refusal_of_the_rules_stores_nothing(db: Database) -> None:
    game_id = await started(db, 6)
    with pytest.raises(RuleRefusedError):  # the engine refuses a number out of range
        await handle(db, SendGrail(101), user(1).id, CHANNEL)
    assert await _stored(db, game_id) == []


async def test_in_the_lobby_nothing_is_resolved(db: Database) -> None:
    await lobby(db, 6)
    with pytest.raises(GameNotStartedError):
        await handle(db, AddAction("attack", ("#2",)), user(1).id, CHANNEL)
