"""`wolfhowl games`: the live games and those ended lately, each with its server,
channel, phase, deadline and the messages waiting, from the database alone."""

from __future__ import annotations

import json
from argparse import Namespace

import pytest

from bot.cli.games import run
from bot.core.outbox import pending_count
from bot.db.session import Database
from tests.service.helpers import CHANNEL, GUILD, lobby, play_to_end, started, within


def games(url: str, *extra: str) -> int:
    return run(Namespace(config=None, url=url, days=7.0, json="--json" in extra))


def test_games_lists_live_and_ended_games_with_their_waiting_messages(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    made: dict[str, int] = {}

    async def three_games(db: Database) -> None:
        made["running"] = await started(db, 6)  # character sheets not yet delivered
        made["lobby"] = await lobby(db, 3, channel=CHANNEL + 1, first=20)
        made["over"] = await started(db, 6, channel=CHANNEL + 2, first=40)
        await play_to_end(db, made["over"])
        made["waiting"] = await pending_count(db)

    within(fresh, three_games)
    assert games(fresh, "--json") == 0
    rows = {r["id"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    assert set(rows) == {made["running"], made["lobby"], made["over"]}
    running, lobby_row, over = rows[made["running"]], rows[made["lobby"]], rows[made["over"]]
    assert (running["guild_id"], running["channel_id"], running["status"], running["round"], running["phase"]) == (GUILD, CHANNEL, "running", 1, "day")
    assert running["deadline"] is not None and running["players"] == 6 and running["waiting"] > 0
    assert (lobby_row["status"], lobby_row["channel_id"], lobby_row["players"], lobby_row["waiting"]) == ("lobby", CHANNEL + 1, 3, 0)
    assert over["status"] == "over" and over["ended_at"] is not None
    assert sum(r["waiting"] for r in rows.values()) == made["waiting"]

    assert games(fresh) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["game", "server", "channel", "status", "phase", "deadline", "players", "waiting"]
    line = next(x for x in table[1:] if x.split()[0] == str(made["running"]))
    assert line.split()[1:7] == [str(GUILD), str(CHANNEL), "running", "round", "1", "day"] and "(in 23 h 59 min)" in line
    assert f" since {running['oldest_waiting'][:10]}" in line
    assert "ended " in next(x for x in table[1:] if x.split()[0] == str(made["over"]))


def test_no_games_and_an_unreachable_database(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert games(fresh) == 0
    assert capsys.readouterr().out == "no live games, and none ended in the last 7 days\n"
    assert games("postgresql://wolf:hunter2@127.0.0.1:9/wolfhowl") == 1
    err = capsys.readouterr().err
    assert "wolfhowl games: the database cannot be used (PostgreSQL database wolfhowl on 127.0.0.1:9 as wolf)" in err
    assert "hunter2" not in err
