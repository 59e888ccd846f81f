"""Time zones and deadline hours: the deadline of each phase falls on the round's hour in
the moderator's zone (summer time followed, at least 12 hours a phase, the hour turning
with the rounds), the hours typed are read or refused (the option's own reading), a zone
is found whatever its case, and the line-up's odds do not move."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.core.advance import advance_phase
from bot.core.errors import BadArgumentError
from bot.core.lineup_odds import odds_for
from bot.core.time_zones import (
    MIN_PHASE,
    UnknownTimeZoneError,
    check_zone,
    next_at_hour,
    rotated_deadline,
    set_time_zone,
    time_zone_of,
    zones_matching,
)
from bot.core.types import GameSettings, UserRef
from bot.db.session import Database
from bot.discord.errors import ReplyError
from bot.features.lobby.games import get_game
from bot.features.moderation import cog_settings as game_settings
from bot.render.refusals import service_refusal
from tests.conftest import FakeClock
from tests.service.helpers import send_all, started


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_a_deadline_falls_on_the_rounds_hour_at_least_twelve_hours_on() -> None:
    hours = (18, 2, 10)
    # Round 1, opened at 09:00 Berlin (08:00 UTC in winter): 18:00 is 9 h away, too soon; the next day's.
    assert rotated_deadline(at("2026-12-07 08:00"), 1, hours, "Europe/Berlin") == at("2026-12-08 17:00")
    # Opened at 05:00 Berlin: 18:00 the same day is 13 h on.
    assert rotated_deadline(at("2026-12-07 04:00"), 1, hours, "Europe/Berlin") == at("2026-12-07 17:00")
    # Round 2 turns to 02:00, round 4 back to 18:00.
    assert rotated_deadline(at("2026-12-07 17:00"), 2, hours, "Europe/Berlin") == at("2026-12-09 01:00")
    assert rotated_deadline(at("2026-12-07 04:00"), 4, hours, "Europe/Berlin") == at("2026-12-07 17:00")
    for opened in (at("2026-12-07 00:00") + timedelta(minutes=37 * i) for i in range(80)):
        for r in (1, 2, 3):
            closes = rotated_deadline(opened, r, hours, "Asia/Shanghai")
            assert MIN_PHASE <= closes - opened < MIN_PHASE + timedelta(days=1)
            assert closes.astimezone(ZoneInfo("Asia/Shanghai")).hour == hours[r - 1]


def test_summer_time_keeps_the_hour_on_the_wall_clock() -> None:
    # Europe/Berlin leaves summer time on 2026-10-25: 18:00 is 16:00 UTC before, 17:00 after.
    assert next_at_hour(at("2026-10-24 12:00"), 18, "Europe/Berlin") == at("2026-10-24 16:00")
    assert next_at_hour(at("2026-10-25 12:00"), 18, "Europe/Berlin") == at("2026-10-25 17:00")
    # An hour the spring change skips (02:00 on 2027-03-28) is read as the instant an hour on.
    assert next_at_hour(at("2027-03-27 23:00"), 2, "Europe/Berlin") == at("2027-03-28 01:00")


def test_hours_and_zones_as_typed() -> None:
    hours = next(s for s in game_settings.SETTINGS if s.name == "deadline_hours")
    assert hours.value("18, 2, 10") == (18, 2, 10) == hours.value("18:00 02:00 10:00") == hours.value("18点，2点、10点")
    assert hours.value("off") == () == hours.value("关")
    for bad in ("25", "6pm", "1,2,3,4,5,6,7", "-1", ""):
        with pytest.raises(ReplyError):
            hours.value(bad)
    assert check_zone("europe/berlin") == "Europe/Berlin" and check_zone(" UTC ") == "UTC"
    with pytest.raises(UnknownTimeZoneError) as refused:
        check_zone("Mars/Olympus")
    assert "Mars/Olympus" in service_refusal(refused.value, "en-US") and "Mars/Olympus" in service_refusal(refused.value, "zh-CN")
    assert zones_matching("berlin")[0] == "Europe/Berlin" and zones_matching("shang")[0] == "Asia/Shanghai"
    with pytest.raises(BadArgumentError):
        GameSettings.build(deadline_hours=(24,))
    with pytest.raises(BadArgumentError):
        GameSettings.build(deadline_zone="Nowhere/Here")


def test_deadline_hours_leave_the_odds_as_they_are() -> None:
    plain = GameSettings.build(max_players=8)
    timed = GameSettings.build(max_players=8, deadline_hours=(18, 2), deadline_zone="Asia/Shanghai")
    assert odds_for(plain, 8).key == odds_for(timed, 8).key


async def test_a_game_with_deadline_hours_closes_each_phase_at_the_rounds_hour(db: Database, clock: FakeClock) -> None:
    clock.now = at("2026-12-07 03:00")
    game_id = await started(db, 6, deadline_hours=(18, 2), deadline_zone="Asia/Shanghai")
    first = await get_game(db, game_id)
    # Opened at 11:00 Shanghai: 18:00 is 7 h away, so the next day's 18:00 (10:00 UTC).
    assert first.deadline == at("2026-12-08 10:00")
    clock.now = at("2026-12-08 10:00")
    await send_all(db, game_id)
    await advance_phase(db, game_id)  # Dusk of round 1, opened at 18:00 Shanghai
    assert (await get_game(db, game_id)).deadline == at("2026-12-09 10:00")
    clock.now = at("2026-12-09 10:00")
    await send_all(db, game_id)
    await advance_phase(db, game_id)  # Morning
    clock.now = at("2026-12-10 10:00")
    await send_all(db, game_id)
    await advance_phase(db, game_id)  # Day of round 2: its hour is 02:00 Shanghai
    info = await get_game(db, game_id)
    assert (info.round, info.phase) == (2, "day") and info.deadline == at("2026-12-11 18:00")


async def test_a_players_zone_is_kept_and_cleared(db: Database) -> None:
    ann = UserRef(501, "ann")
    assert await time_zone_of(db, ann.id) is None
    assert await set_time_zone(db, ann, "asia/taipei") == "Asia/Taipei"
    assert await time_zone_of(db, ann.id) == "Asia/Taipei"
    with pytest.raises(UnknownTimeZoneError):
        await set_time_zone(db, ann, "Taipei City")
    assert await time_zone_of(db, ann.id) == "Asia/Taipei"  # a refusal changes nothing
    assert await set_time_zone(db, ann, None) is None and await time_zone_of(db, ann.id) is None
