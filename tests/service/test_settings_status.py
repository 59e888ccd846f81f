"""What a moderator reads and changes besides the phases: the phase status (kinds only),
the settings (anything in the lobby, not the rules once dealt), and finding games by
channel, by moderator and all live ones."""

from __future__ import annotations

from datetime import timedelta

import pytest

import engine
from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.core.outbox import claim_due_messages
from bot.core.types import UserRef
from bot.core.views import player_view
from bot.db import repositories as repo
from bot.db.session import Database
from bot.features.lobby.games import (
    create_game,
    get_game,
    latest_game_in_channel,
    live_games,
    start_game,
)
from bot.features.moderation.moderation import (
    cancel_game,
    remove_player,
    replace_player,
    update_settings,
)
from bot.features.moderation.status import phase_status
from bot.features.play.commands import SendGrail, SendSubmission, handle
from tests.service.helpers import (
    CHANNEL,
    GUILD,
    MODERATOR,
    current_state,
    lobby,
    play_to_end,
    sees,
    started,
    user,
)


async def test_phase_status_says_which_kinds_each_seat_sent_never_what(db: Database) -> None:
    lobby_id = await lobby(db, 6)
    assert (await phase_status(db, lobby_id)).sent == {}
    await start_game(db, lobby_id)
    await handle(db, SendGrail(42), user(1).id)
    await handle(db, SendGrail(7), user(2).id)
    status = await phase_status(db, lobby_id)
    assert status.game.phase == "day" and status.sent == {1: ("grail",), 2: ("grail",)}
    await advance_phase(db, lobby_id)
    await handle(db, SendSubmission(engine.Orders()), user(3).id)
    await handle(db, SendSubmission(engine.Identification(())), user(3).id)
    status = await phase_status(db, lobby_id)
    assert status.sent == {3: ("identify", "orders")}
    assert all(isinstance(k, str) for kinds in status.sent.values() for k in kinds)
    await play_to_end(db, lobby_id)
    assert (await phase_status(db, lobby_id)).sent == {}
    with pytest.raises(E.GameNotFoundError):
        await phase_status(db, 999)
    # A moderator may type any number up to 2**53 (/mod log): beyond the id column's 32
    # bits there is no game either (PostgreSQL refused to even compare such a number).
    for far in (2**31, 2**40, 2**53):
        with pytest.raises(E.GameNotFoundError):
            await get_game(db, far)


async def test_in_the_lobby_any_setting_may_change(db: Database) -> None:
    game_id = await lobby(db, 6)
    info = await update_settings(
        db, game_id, max_players=8, vote_tie_rule="nobody", reveal_on_death=True, win_score=20,
        language="zh-CN", day_seconds=3600,
    )  # fmt: skip
    s = info.settings
    assert (s.max_players, s.vote_tie_rule, s.reveal_on_death, s.win_score, s.language, s.day_seconds) == (
        8, "nobody", True, 20, "zh-CN", 3600,
    )  # fmt: skip
    assert (await get_game(db, game_id)).settings == s
    await start_game(db, game_id)
    messages = await claim_due_messages(db, limit=100)
    assert {m.locale for m in messages if m.recipient_kind == "channel"} == {"zh-CN"}
    state_settings = (await current_state(db, game_id)).settings
    assert state_settings.vote_tie_rule is engine.VoteTieRule.NOBODY and state_settings.win_score == 20


async def test_bad_settings_are_refused_naming_the_field_and_change_nothing(db: Database) -> None:
    game_id = await lobby(db, 7)
    before = (await get_game(db, game_id)).settings
    for changes, field in (
        ({"colour": "red"}, "colour"),
        ({"day_seconds": 10}, "day_seconds"),
        ({"vote_tie_rule": "coin"}, "vote_tie_rule"),
        ({"max_players": 6}, "max_players"),  # seven have joined
        ({"day_seconds": 3600, "max_players": 99}, "max_players"),  # all or nothing
    ):
        with pytest.raises(E.BadArgumentError) as err:
            await update_settings(db, game_id, **changes)
        assert err.value.params["field"] == field, changes
    assert (await get_game(db, game_id)).settings == before


async def test_once_dealt_the_rules_are_fixed_and_the_rest_applies_from_the_next_phase(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=3600, dusk_seconds=3600)
    info = await get_game(db, game_id)
    rules = (("max_players", 8), ("vote_tie_rule", "all"), ("reveal_on_death", True), ("win_score", 30),
             ("killing_blow", "killer_takes"), ("departures", "morning"), ("vote_damage", "private"))  # fmt: skip
    for rule, value in rules:
        with pytest.raises(E.BadArgumentError) as err:
            await update_settings(db, game_id, **{rule: value, "dusk_seconds": 60})
        assert err.value.params == {"field": rule} and "fixed once the game has started" in str(err.value)
    assert (await get_game(db, game_id)).settings == info.settings  # nothing written
    # Giving a rule its current value is no change.
    same = await update_settings(db, game_id, vote_tie_rule=info.settings.vote_tie_rule, dusk_seconds=7200)
    assert same.settings.dusk_seconds == 7200
    # The open Day keeps its deadline; the Dusk gets the new length.
    assert same.deadline == info.deadline
    clock.advance(10)
    after = await advance_phase(db, game_id)
    assert after.phase == "dusk" and after.deadline == clock.now + timedelta(seconds=7200)
    await update_settings(db, game_id, language="zh-CN", early_advance=False)
    assert (await get_game(db, game_id)).settings.language == "zh-CN"
    await cancel_game(db, game_id)
    with pytest.raises(E.GameFinishedError):
        await update_settings(db, game_id, day_seconds=600)


async def test_finding_games_by_channel_moderator_and_all_live(db: Database) -> None:
    assert await latest_game_in_channel(db, CHANNEL) is None
    first = await lobby(db, 0)
    await cancel_game(db, first)
    second = await lobby(db, 0)
    assert (await latest_game_in_channel(db, CHANNEL)).id == second
    # For the log: the game that ended there, even with a new lobby open.
    assert (await latest_game_in_channel(db, CHANNEL, finished_first=True)).id == first
    await cancel_game(db, second)
    latest = await latest_game_in_channel(db, CHANNEL)
    assert latest is not None and latest.id == second and latest.status == "cancelled"
    # Two live games of the moderator, one of someone else, one finished.
    a = await lobby(db, 0, channel=CHANNEL + 1)
    b = await started(db, 6, channel=CHANNEL + 2)
    other = await create_game(db, guild_id=GUILD, channel_id=CHANNEL + 3, moderator=UserRef(77, "Other"))
    async with db.read() as s:
        assert [g for g, _ in await repo.live_places_moderated_by(s, MODERATOR.id)] == [a, b]
        assert [g for g, _ in await repo.live_places_moderated_by(s, 77)] == [other.id]
        assert await repo.live_places_moderated_by(s, 78) == []
    assert [g.id for g in await live_games(db)] == [a, b, other.id]
    with pytest.raises(E.BadArgumentError):
        await latest_game_in_channel(db, -5)


async def test_the_view_here_is_the_channel_games_else_the_callers_live_one(db: Database) -> None:
    game_id = await started(db, 6)
    await handle(db, SendGrail(41), user(2).id)
    expected = await player_view(db, user(2).id, game_id)
    # In the game's channel, by DM (no channel), and from a channel with no game.
    for where in (CHANNEL, None, 424242):
        here = await player_view(db, user(2).id, channel_id=where)
        assert here == expected and here.sent == {"grail": {"kind": "grail", "number": 41}}
    other = await started(db, 6, channel=CHANNEL + 1, first=20, seed="other-seed")
    # In another game's channel a player of this one is not at that table.
    with pytest.raises(E.NotInGameError):
        await player_view(db, user(2).id, channel_id=CHANNEL + 1)
    assert (await player_view(db, user(20).id)).game.id == other
    with pytest.raises(E.NoActiveGameError):
        await player_view(db, 999_999)


async def test_the_status_knows_who_holds_or_held_a_seat(db: Database) -> None:
    """A moderator who plays, or played until replaced or removed, knows a seat's class
    and faction: /mod status then shows them only the count of who has sent."""
    game_id = await started(db, 7, seed="status-viewer")
    await replace_player(db, game_id, 2, UserRef(901, "Newcomer"), await sees(db, game_id, UserRef(901, "Newcomer")))
    await remove_player(db, game_id, 3)
    played = {uid: (await phase_status(db, game_id, uid)).viewer_played for uid in (user(1).id, user(2).id, user(3).id, 901, 902)}
    assert played == {user(1).id: True, user(2).id: True, user(3).id: True, 901: True, 902: False}
    assert not (await phase_status(db, game_id)).viewer_played


async def test_house_rules_chosen_in_the_lobby_are_the_ones_the_engine_plays(db: Database) -> None:
    game_id = await lobby(db, 6, departures="morning")
    info = await get_game(db, game_id)
    assert (info.settings.killing_blow, info.settings.departures, info.settings.vote_damage) == ("steal", "morning", "public")
    await update_settings(db, game_id, killing_blow="killer_takes", vote_damage="private")
    with pytest.raises(E.BadArgumentError) as err:
        await update_settings(db, game_id, departures="sometime")
    assert err.value.params["field"] == "departures"
    await start_game(db, game_id)
    played = (await current_state(db, game_id)).settings
    assert played.killing_blow is engine.KillingBlowRule.KILLER_TAKES
    assert played.departures is engine.DeparturesRule.MORNING
    assert played.vote_damage is engine.VoteDamageRule.PRIVATE
