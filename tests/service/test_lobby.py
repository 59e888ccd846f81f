"""Creating, joining, leaving and starting games; one game per channel and per player;
bad input raises typed errors and writes nothing."""

from __future__ import annotations

import hashlib

import pytest

from bot.core import errors as E
from bot.core.outbox import claim_due_messages
from bot.core.table import Place
from bot.core.types import GameSettings, UserRef
from bot.core.views import game_info
from bot.db.models import Game, GamePlayer, OutboxMessage, User
from bot.db.session import Database
from bot.features.lobby.games import (
    create_game,
    game_in_channel,
    join_game,
    leave_game,
    start_game,
)
from bot.features.moderation.moderation import cancel_game
from bot.render.refusals import service_refusal
from tests.service.helpers import CHANNEL, GUILD, MODERATOR, count, lobby, sees, started, user


async def test_the_lobby_post_is_written_with_the_game(db: Database) -> None:
    """In the outbox, in the same transaction: a failure or a stop right after the
    commit cannot lose the post that carries the Join button."""
    info = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR)
    [m] = await claim_due_messages(db, limit=100)
    assert (m.game_id, m.recipient_kind, m.recipient_id, m.payload["type"]) == (info.id, "channel", CHANNEL, "lobby")


async def test_create_join_start_deals_from_the_seed(db: Database) -> None:
    game_id = await lobby(db, 7, seed="lobby-seed-1")
    info = await start_game(db, game_id)
    assert info.status == "running" and info.phase == "day" and info.round == 1
    assert [p.seat for p in info.players] == list(range(1, 8))
    assert [p.name for p in info.players] == [f"Player{i}" for i in range(1, 8)]
    assert info.seed_sha256 == hashlib.sha256(b"lobby-seed-1").hexdigest()
    assert info.deadline is not None and info.version == 1
    msgs = await claim_due_messages(db, limit=100)
    kinds = [(m.recipient_kind, m.payload["type"]) for m in msgs]
    assert kinds[0] == ("channel", "game_started") and kinds[-1] == ("channel", "phase_started")
    sheets = [m for m in msgs if m.payload["type"] == "sheet"]
    assert sorted(m.recipient_id for m in sheets) == [user(i).id for i in range(1, 8)]
    # Each sheet is its own seat's; the public post carries no class or faction.
    for m in sheets:
        seat = next(p.seat for p in info.players if p.user_id == m.recipient_id)
        assert m.payload["sheet"]["seat"] == seat
    public = [m.payload for m in msgs if m.recipient_kind == "channel"]
    assert "class_id" not in str(public) and "faction" not in str(public)


async def test_one_game_per_channel(db: Database) -> None:
    await lobby(db, 0)
    with pytest.raises(E.ChannelHasGameError):
        await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR)
    info = await game_in_channel(db, CHANNEL)
    assert info is not None
    await cancel_game(db, info.id)
    assert await game_in_channel(db, CHANNEL) is None
    await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR)


async def test_one_live_game_per_player_across_servers(db: Database) -> None:
    a = await lobby(db, 1)
    b = await create_game(db, guild_id=GUILD + 1, channel_id=CHANNEL + 1, moderator=MODERATOR)
    with pytest.raises(E.AlreadyInGameError) as err:
        await join_game(db, b.id, user(1), await sees(db, b.id, user(1)))
    # The refusal names the game and its channel (it may be in another server).
    assert err.value.params == {"game_id": a, "channel": f"<#{CHANNEL}>"}
    assert service_refusal(err.value, "en-US") == f"You are already in game #{a}, in <#{CHANNEL}>; one game at a time."
    assert service_refusal(err.value, "zh-CN") == f"你已经在<#{CHANNEL}>的第{a}局游戏中；同一时间只能参加一局。"
    with pytest.raises(E.AlreadyJoinedError):  # a kind of AlreadyInGameError
        await join_game(db, a, user(1), await sees(db, a, user(1)))
    assert (await game_info(db, Place.of(user(1).id))).id == a
    await leave_game(db, a, user(1).id)
    await join_game(db, b.id, user(1), await sees(db, b.id, user(1)))
    assert (await game_info(db, Place.of(user(1).id))).id == b.id
    with pytest.raises(E.NoActiveGameError):
        await game_info(db, Place.of(user(2).id))


async def test_lobby_full_and_too_few_players(db: Database) -> None:
    game_id = await lobby(db, 6, max_players=6)
    with pytest.raises(E.LobbyFullError) as err:
        await join_game(db, game_id, user(7), await sees(db, game_id, user(7)))
    assert err.value.key == "error.lobby_full" and err.value.params == {"max": 6}
    await leave_game(db, game_id, user(6).id)
    with pytest.raises(E.NotEnoughPlayersError):
        await start_game(db, game_id)
    with pytest.raises(E.NotInGameError):
        await leave_game(db, game_id, user(6).id)


async def test_after_the_start_the_lobby_is_closed(db: Database) -> None:
    game_id = await started(db, 6)
    with pytest.raises(E.LobbyClosedError):
        await join_game(db, game_id, user(50), await sees(db, game_id, user(50)))
    with pytest.raises(E.LobbyClosedError):
        await leave_game(db, game_id, user(1).id)
    with pytest.raises(E.LobbyClosedError):
        await start_game(db, game_id)


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"max_players": 5}, "max_players"),
        ({"max_players": 16}, "max_players"),
        ({"day_seconds": 10}, "day_seconds"),
        ({"vote_tie_rule": "coin"}, "vote_tie_rule"),
        ({"language": "fr-FR"}, "language"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_settings_name_the_field(values: dict, field: str) -> None:
    with pytest.raises(E.BadArgumentError) as err:
        GameSettings.build(**values)
    assert err.value.key == "error.bad_argument" and err.value.params["field"] == field
    assert service_refusal(err.value, "zh-CN")


async def test_bad_arguments_write_nothing(db: Database) -> None:
    with pytest.raises(E.BadArgumentError):
        await create_game(db, guild_id=0, channel_id=CHANNEL, moderator=MODERATOR)
    with pytest.raises(E.BadArgumentError):
        await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=UserRef(1, "  "))
    with pytest.raises(E.BadArgumentError):
        await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR, seed="short")
    with pytest.raises(E.GameNotFoundError):
        await join_game(db, 999, user(1), await sees(db, 999, user(1)))
    with pytest.raises(E.BadArgumentError):
        await join_game(db, "1", user(1), await sees(db, "1", user(1)))  # type: ignore[arg-type]
    assert await count(db, Game) == 0 and await count(db, User) == 0
    game_id = await lobby(db, 6, max_players=6)
    before = (await count(db, GamePlayer), await count(db, User), await count(db, OutboxMessage))
    with pytest.raises(E.LobbyFullError):
        await join_game(db, game_id, UserRef(777, "Late"), await sees(db, game_id, UserRef(777, "Late")))
    assert (await count(db, GamePlayer), await count(db, User), await count(db, OutboxMessage)) == before


async def test_error_texts_in_both_languages() -> None:
    err = E.PhaseClosedError(round=2, phase="phase.dusk")
    assert "Dusk" in service_refusal(err, "en-US") and "黄昏" in service_refusal(err, "zh-CN")
    assert "2" in str(err)


def test_service_texts_name_the_phases_as_the_engine_does() -> None:
    """One wording of each phase: a service refusal names it as the engine's refusals do."""
    from bot.i18n import LOCALES, refusal_text, t
    from engine.errors import WrongPhaseError

    for loc in LOCALES:
        dusk = t("phase.dusk", loc)
        assert dusk in service_refusal(E.PhaseClosedError(round=2, phase="phase.dusk"), loc)
        assert dusk in refusal_text(WrongPhaseError(expected="phase.dusk", phase="phase.day"), loc)
    # A name that looks like a key is shown as typed, a phase key in the reader's language.
    err = E.SeatGoneError(seat="phase.day")
    assert service_refusal(err, "zh-CN") == "phase.day号已经出局。"
