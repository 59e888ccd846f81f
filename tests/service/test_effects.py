"""Which games' Discord side must be brought in line: every change of a game or its
players marks it, whatever use case made it; a submission or a reminder does not; a game
waits while a post of it is still to go; a change made while it was being reconciled
keeps it due."""

from __future__ import annotations

from bot.core.advance import advance_phase
from bot.core.effects import (
    games_to_reconcile,
    mark_all_reconciled,
    mark_effects_due,
    mark_rechecks,
    mark_reconciled,
)
from bot.core.types import UserRef
from bot.db.session import Database
from bot.features.lobby.games import join_game, leave_game, start_game
from bot.features.moderation.moderation import (
    end_game,
    extend_deadline,
    pause_game,
    remove_player,
    replace_player,
    resume_game,
    update_settings,
)
from bot.features.play.commands import SendGrail, handle
from tests.service.helpers import lobby, sees, send_all, started, take_due, user


async def due(db: Database) -> dict[int, int]:
    return dict(await games_to_reconcile(db))


async def marked(db: Database, game_id: int) -> bool:
    from bot.db.models import Game

    async with db.read() as s:
        game = await s.get(Game, game_id)
        return game is not None and game.effects_due is not None


async def settle(db: Database) -> None:
    """Deliver everything and reconcile every game, as the bot would."""
    await take_due(db)
    for game_id, changes in await games_to_reconcile(db):
        assert await mark_reconciled(db, game_id, changes)
    assert await due(db) == {}


async def test_every_change_of_a_game_or_its_players_marks_it(db: Database) -> None:
    game_id = await lobby(db, 7)
    assert game_id in await due(db)  # created and joined
    await settle(db)
    await leave_game(db, game_id, user(7).id)
    assert game_id in await due(db)
    await settle(db)
    await join_game(db, game_id, user(8), await sees(db, game_id, user(8)))
    assert game_id in await due(db)
    await settle(db)
    newcomer = UserRef(555, "Newcomer")
    newcomer_sees = await sees(db, game_id, newcomer)
    steps = [
        lambda: start_game(db, game_id),
        lambda: update_settings(db, game_id, day_seconds=7200),
        lambda: pause_game(db, game_id),
        lambda: resume_game(db, game_id),
        lambda: replace_player(db, game_id, 2, newcomer, newcomer_sees),
        lambda: remove_player(db, game_id, 3),
        lambda: advance_phase(db, game_id),
        lambda: end_game(db, game_id),
    ]
    for step in steps:
        await step()
        assert await marked(db, game_id), step
        await settle(db)


async def test_a_submission_or_the_clock_marks_nothing(db: Database) -> None:
    game_id = await started(db, 6, early_advance=True)
    await settle(db)
    await handle(db, SendGrail(42), user(1).id)
    await extend_deadline(db, game_id, 600)
    await send_all(db, game_id)  # everyone has sent: the deadline moves to now
    assert not await marked(db, game_id)


async def test_a_game_waits_for_its_posts_and_a_change_meanwhile_keeps_it_due(db: Database) -> None:
    game_id = await started(db, 6)
    assert game_id not in await due(db)  # the start's posts are still to go
    await take_due(db)
    [(gid, changes)] = await games_to_reconcile(db)
    other = await lobby(db, 0, channel=3000)
    await join_game(db, other, user(50), await sees(db, other, user(50)))  # another game: no matter
    await remove_player(db, game_id, 1)  # a change while it is being reconciled
    assert not await mark_reconciled(db, gid, changes)
    await take_due(db)
    assert game_id in await due(db)


async def test_the_start_up_check_marks_every_live_game(db: Database) -> None:
    live, finished = await started(db, 6), await started(db, 6, channel=3000, first=20)
    await end_game(db, finished)
    await settle(db)
    assert await mark_effects_due(db) == 1
    assert set(await due(db)) == {live}


async def test_the_start_up_check_names_the_games_with_no_change_of_their_own_waiting(db: Database) -> None:
    quiet, changed = await started(db, 6), await started(db, 6, channel=3000, first=20)
    await settle(db)
    await remove_player(db, changed, 1)  # a change not yet brought in line
    await take_due(db)
    assert await mark_rechecks(db, [quiet, changed]) == [quiet]
    assert set(await due(db)) == {quiet, changed}  # both are checked
    await mark_effects_due(db, [quiet])  # a change after the check: no longer a mere recheck
    assert await mark_rechecks(db, [quiet]) == []


async def test_a_pass_clears_its_games_marks_at_once_but_not_those_changed_meanwhile(db: Database) -> None:
    one, two = await started(db, 6), await started(db, 6, channel=3000, first=20)
    await take_due(db)
    handed = await games_to_reconcile(db)
    assert {g for g, _ in handed} == {one, two}
    await remove_player(db, two, 1)  # a change while the pass was under way
    await take_due(db)
    assert await mark_all_reconciled(db, handed) == 1
    assert set(await due(db)) == {two}
    assert await mark_all_reconciled(db, []) == 0
