"""A moderator's command through its one road, ``service.moderate``: the access policy's
``moderate`` is asked of the caller's standing before anything is done, and the handler
of the command's class does it."""

from __future__ import annotations

import pytest

from bot.core import errors as E
from bot.core.access_errors import NotModeratorError
from bot.core.policy import Standing
from bot.core.types import GameSettings
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.features.moderation.commands import (
    AdvancePhase,
    AskToEnd,
    CancelGame,
    ChangeSettings,
    CreateGame,
    EndGame,
    ExportLog,
    KickFromLobby,
    PauseGame,
    RemovePlayer,
    ResumeGame,
    moderate,
)
from tests.service.helpers import CHANNEL, GUILD, MODERATOR, as_moderator, lobby, started, user

# Manage Server in the game's server; the same in another server; a plain member.
ADMIN = Standing.member_of(77, GUILD, moderator=True)
ELSEWHERE = Standing.member_of(77, GUILD + 1, moderator=True)
PLAYER = Standing.member_of(user(1).id, GUILD, (CHANNEL,))


async def test_a_player_or_another_servers_moderator_changes_nothing(db: Database) -> None:
    game_id = await started(db, 6)
    for standing in (PLAYER, ELSEWHERE, Standing.stranger(77)):
        for command in (PauseGame(game_id=game_id), AdvancePhase(game_id=game_id), EndGame(game_id=game_id), RemovePlayer("2", game_id=game_id)):
            with pytest.raises(NotModeratorError):
                await moderate(db, as_moderator(standing), command)
    info = await get_game(db, game_id)
    assert info.status == "running" and info.round == 1 and info.phase == "day"
    assert all(p.alive for p in info.players)


async def test_a_server_moderator_and_the_games_creator_moderate(db: Database) -> None:
    game_id = await started(db, 6)
    assert (await moderate(db, as_moderator(ADMIN), PauseGame(game_id=game_id))).status == "paused"
    creator = Standing.member_of(MODERATOR.id, GUILD)  # no role: the game is theirs
    assert (await moderate(db, as_moderator(creator), ResumeGame(game_id=game_id))).status == "running"
    assert (await moderate(db, as_moderator(creator), ChangeSettings({"language": "zh-CN"}, game_id=game_id))).settings.language == "zh-CN"
    with pytest.raises(E.NotPausedError):  # past the check, the game's own refusals
        await moderate(db, as_moderator(creator), ResumeGame(game_id=game_id))
    # Once they have left the server, the game is theirs no more.
    with pytest.raises(NotModeratorError):
        await moderate(db, as_moderator(Standing.stranger(MODERATOR.id, GUILD)), ChangeSettings({"language": "en-US"}, game_id=game_id))


async def test_a_game_is_created_by_a_moderator_of_its_server_only(db: Database) -> None:
    asked = CreateGame(GUILD, CHANNEL, user(1), GameSettings())
    for standing in (PLAYER, ELSEWHERE):
        with pytest.raises(NotModeratorError):
            await moderate(db, as_moderator(standing), asked)
    info = await moderate(db, as_moderator(ADMIN), asked)
    assert (info.guild_id, info.channel_id, info.status) == (GUILD, CHANNEL, "lobby")


async def test_an_unknown_game_is_not_found_before_the_check(db: Database) -> None:
    with pytest.raises(E.GameNotFoundError):
        await moderate(db, as_moderator(PLAYER), PauseGame(game_id=999_999))


async def test_the_end_asked_for_is_the_cancel_of_a_lobby_and_the_end_of_a_game(db: Database) -> None:
    waiting = await lobby(db, 6)
    assert await moderate(db, as_moderator(ADMIN), AskToEnd(game_id=waiting)) == CancelGame(game_id=waiting)
    playing = await started(db, 6, channel=CHANNEL + 1, first=11)
    assert await moderate(db, as_moderator(ADMIN), AskToEnd(game_id=playing)) == EndGame(game_id=playing)
    # A lobby's confirmation does not cancel the game it has become.
    with pytest.raises(E.ModerationRefusedError) as refused:
        await moderate(db, as_moderator(ADMIN), CancelGame(game_id=playing))
    assert refused.value.key == "reply.error.end_started"
    assert (await get_game(db, playing)).status == "running"
    with pytest.raises(E.ModerationRefusedError):  # its log waits for the end
        await moderate(db, as_moderator(ADMIN), ExportLog(game_id=playing))
    await moderate(db, as_moderator(ADMIN), EndGame(game_id=playing))
    assert (await moderate(db, as_moderator(ADMIN), ExportLog(game_id=playing)))["complete"] is True


async def test_a_player_is_named_as_typed_and_an_ai_seat_is_not_kicked(db: Database) -> None:
    game_id = await lobby(db, 3, ai_seats=2)
    kicked = await moderate(db, as_moderator(ADMIN), KickFromLobby("Player2", game_id=game_id))
    assert kicked.player.user_id == user(2).id and user(2).id not in [p.user_id for p in kicked.game.players]
    ai = next(p for p in kicked.game.players if not p.user_id)
    with pytest.raises(E.ModerationRefusedError) as refused:
        await moderate(db, as_moderator(ADMIN), KickFromLobby(ai.name, game_id=game_id))
    assert refused.value.key == "reply.error.ai_seat_kick"
    with pytest.raises(E.ResolveError):
        await moderate(db, as_moderator(ADMIN), KickFromLobby("nobody at all", game_id=game_id))
