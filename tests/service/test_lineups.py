"""A game's line-up as a setting: chosen in the lobby (a preset or one's own, which sets
the table's size), refused with the rules' reason when it does not fit (nothing
changed), fixed once dealt, dealt from the seed, and replayed exactly by verify (a
header naming another line-up is caught). The lobby's odds are looked up per line-up,
size and rules."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from bot.core import errors as E
from bot.core.lineup_odds import odds_for, store_odds, table_size
from bot.db.session import Database
from bot.features.lobby.games import get_game, start_game
from bot.features.moderation.moderation import update_settings
from bot.features.replay.export import export_game
from bot.features.replay.verify import verify_log
from bot.i18n import refusal_text
from engine.lineup import LineupError, parse
from tests.service.helpers import current_state, lobby, play_to_end

OWN = "paladin,cleric,monk/rogue,druid/ranger,sorcerer"


async def test_a_line_up_of_ones_own_is_dealt_from_the_seed_and_verified(db: Database) -> None:
    game_id = await lobby(db, 7)
    info = await update_settings(db, game_id, lineup="Paladin, Cleric, Monk / rogue, druid / ranger, sorcerer")
    assert info.settings.lineup == OWN and info.settings.max_players == 7  # its own size
    assert info.odds is not None and info.odds.lineup == OWN and info.odds.players == 7 and not info.odds.known
    await start_game(db, game_id)
    state = await current_state(db, game_id)
    assert Counter((p.faction, p.class_id) for p in state.players) == Counter(parse(OWN).roles())
    # Fixed once dealt: refused, nothing saved.
    with pytest.raises(E.SettingFixedError):
        await update_settings(db, game_id, lineup="classic")
    assert (await get_game(db, game_id)).settings.lineup == OWN
    await play_to_end(db, game_id)
    log = await export_game(db, game_id)
    assert log["game"]["settings"]["lineup"] == OWN and log["steps"][0]["inputs"]["settings"]["lineup"] == OWN
    report = verify_log(log)
    assert report.ok, report.mismatch
    # Another deal is caught: the seed deals this line-up, not another.
    log["steps"][0]["inputs"]["settings"]["lineup"] = "paladin,cleric,monk/rogue,druid/ranger,bard"
    log["game"]["settings"]["lineup"] = "paladin,cleric,monk/rogue,druid/ranger,bard"
    assert not verify_log(log).ok
    # A header naming a line-up the game was not dealt is caught.
    log = await export_game(db, game_id)
    log["game"]["settings"]["lineup"] = "classic"
    bad = verify_log(log)
    assert not bad.ok and "lineup" in (bad.mismatch or "")


async def test_a_preset_is_dealt_at_the_size_the_game_starts_with_and_verified(db: Database) -> None:
    game_id = await lobby(db, 8, lineup="varied")
    info = await get_game(db, game_id)
    assert info.odds is not None and info.odds.players == 8 and info.odds.lineup == engine.lineup.preset("varied", 8).text()  # type: ignore[union-attr]
    await start_game(db, game_id)
    await play_to_end(db, game_id)
    log = await export_game(db, game_id)
    assert log["game"]["settings"]["lineup"] == "varied"
    assert verify_log(log).ok


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"lineup": "warrior,monk/barbarian,barbarian/bard,ranger"}, "Neutral names Barbarian twice"),
        ({"lineup": "knights"}, "no preset called “knights”"),
        ({"lineup": OWN, "max_players": 9}, "it seats 7 players and the table has 9"),
    ],
)
async def test_a_line_up_that_does_not_fit_is_refused_and_nothing_changes(db: Database, change: dict, reason: str) -> None:
    game_id = await lobby(db, 6)
    before = (await get_game(db, game_id)).settings
    with pytest.raises(LineupError) as caught:
        await update_settings(db, game_id, **change)
    assert reason in refusal_text(caught.value, "en-US") and refusal_text(caught.value, "zh-CN") != refusal_text(caught.value, "en-US")
    assert (await get_game(db, game_id)).settings == before


async def test_an_own_line_up_holds_the_table_to_its_size(db: Database) -> None:
    game_id = await lobby(db, 6, lineup=OWN, max_players=7)
    with pytest.raises(LineupError):
        await update_settings(db, game_id, max_players=8)
    with pytest.raises(LineupError) as caught:
        await start_game(db, game_id)  # six have joined, the line-up seats seven
    assert "it seats 7 players and the table has 6" in refusal_text(caught.value, "en-US")
    assert (await get_game(db, game_id)).status == "lobby"
    info = await update_settings(db, game_id, lineup="classic")  # back to a preset: any size again
    assert info.settings.max_players == 7 and info.odds is not None and info.odds.players == 6


async def test_the_odds_are_stored_once_per_line_up_size_and_rules(db: Database) -> None:
    game_id = await lobby(db, 6, lineup="classic")
    info = await get_game(db, game_id)
    assert info.odds is not None and not info.odds.known
    await store_odds(db, info.odds, {"games": 1000, "wins": {"lawful": 340, "neutral": 330, "chaotic": 345}, "median_rounds": 7.0}, [game_id])
    again = (await get_game(db, game_id)).odds
    assert again is not None and again.known and again.games == 1000 and again.wins["chaotic"] == 345
    # Another size, line-up or house rule is another simulation.
    settings = info.settings
    keys = {
        odds_for(settings, 6).key,
        odds_for(settings, 7).key,
        odds_for(settings.model_copy(update={"lineup": "varied"}), 6).key,
        odds_for(settings.model_copy(update={"killing_blow": "killer_takes"}), 6).key,
    }
    assert len(keys) == 4
    assert table_size(settings, 2) == 6 and table_size(settings, 9) == 9
