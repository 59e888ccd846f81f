"""``wolfhowl db check``: before an upgrade or a downgrade, what it would do to which
games, on both databases: the games by status and rules version (a game stored before
versions were recorded as of its start), the migrations on the way, and a downgrade that
would refuse (AI seats below 0011) with the games named. It changes nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

import engine
from bot.cli import main as wolfhowl
from bot.db.migrate import DowngradeRefused, current, downgrade, head_revision
from bot.db.models import Game
from bot.db.session import Database
from bot.features.ops.db_check import check_database
from tests.db.test_downgrade_keeps_rows import counts, with_games


async def _as_stored_before_versions(url: str, game_id: int, started: datetime) -> None:
    """The live game as a release before rules versions stored it, dealt at ``started``."""
    db = Database(url)
    try:
        async with db.transaction() as s:
            game = await s.get(Game, game_id)
            assert game is not None and game.state is not None
            settings = {k: v for k, v in game.state["settings"].items() if k != "rules_version"}
            game.state = game.state | {"settings": settings}
            game.started_at = started
    finally:
        await db.dispose()


async def test_check_lists_the_games_by_rules_version_and_the_refused_downgrade(empty_url: str) -> None:
    newest = engine.rules.CURRENT
    lowest = engine.rules.versions()[newest].schema  # the first schema sure to know it
    done, live, waiting = await with_games(empty_url, ai_seats=2, version=newest)
    await _as_stored_before_versions(empty_url, live, datetime(2026, 12, 1, 10, 0, tzinfo=UTC))
    before = await counts(empty_url)
    report = await check_database(empty_url)
    assert report.direction == "none" and report.revision == head_revision()
    by_id = {g.id: g for g in report.games}
    assert (by_id[done].status, by_id[done].rules_version, by_id[done].recorded, by_id[done].lowest) == ("over", newest, True, lowest)
    assert (by_id[live].status, by_id[live].rules_version, by_id[live].recorded, by_id[live].lowest) == ("running", 2, False, "0003")
    assert (by_id[waiting].status, by_id[waiting].rules_version, by_id[waiting].lowest) == ("lobby", newest, None)
    lines = "\n".join(report.lines())
    assert f"rules version 2: #{live} running (not recorded: as of its start)" in lines
    assert f"  cannot go below 0003 (no release before it is sure to know version 2): #{live}" in lines
    assert f"rules version {newest}: #{done} over, #{waiting} lobby" in lines
    assert f"  cannot go below {lowest} (no release before it is sure to know version {newest}): #{done}\n" in lines
    assert f"live games keep their rules version to their end: #{live} version 2" in lines
    assert f"a downgrade below 0011 would be refused: cannot go below 0011: games #{live} had AI seats" in lines
    assert f"a downgrade below {lowest} would be refused: cannot go below {lowest}: games #{done} were dealt under rules version {newest}" in lines
    assert "a downgrade below 0016" not in lines  # (the same games again: once, at the highest)
    assert f"#{waiting} lobby (not recorded" not in lines  # a lobby is dealt under the newest when it starts

    down = "\n".join((await check_database(empty_url, "0002")).lines())
    assert f"downgrade to 0002 undoes {int(str(head_revision())) - 2} migration(s):" in down
    assert f"it would be REFUSED, changing nothing: cannot go below {lowest}: games #{done} were dealt" in down
    to_lowest = "\n".join((await check_database(empty_url, lowest)).lines())
    assert "REFUSED" not in to_lowest
    if lowest != head_revision():  # (to the head itself there is no downgrade to describe)
        assert f"a release at {lowest} plays the live games on by the rules version each was dealt under" in to_lowest
    # What it said is what the downgrade does; and the check itself changed nothing.
    assert await current(empty_url) == head_revision() and await counts(empty_url) == before
    with pytest.raises(DowngradeRefused, match=f"cannot go below {lowest}: games #{done} were dealt under rules version {newest}"):
        await downgrade(empty_url, "0002")


async def test_check_says_a_release_before_versions_plays_a_live_game_by_its_own_numbers(empty_url: str) -> None:
    await with_games(empty_url)  # dealt under version 1
    down = "\n".join((await check_database(empty_url, "0010")).lines())
    assert "REFUSED" not in down
    assert "a release at 0010 records no rules version: it plays the live games on by the numbers of its own day" in down


async def test_check_before_an_upgrade_reads_the_older_schema(empty_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    done, live, _ = await with_games(empty_url)
    await downgrade(empty_url, "0010")
    report = await check_database(empty_url)
    head = str(head_revision())
    later = [f"{n:04d}" for n in range(11, int(head) + 1)]
    assert report.direction == "upgrade" and [s.revision for s in report.steps] == later
    assert {g.id for g in report.games} >= {done, live}
    assert await asyncio.to_thread(wolfhowl, ["db", "check", "--url", empty_url]) == 0  # (it runs its own loop)
    out = capsys.readouterr().out
    assert f"schema: 0010; this release's head: {head}" in out
    assert f"upgrade to {head} applies {len(later)} migration(s):" in out and "  0011: AI seats" in out
    assert "refused" not in out
