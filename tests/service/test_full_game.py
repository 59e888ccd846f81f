"""A whole game through the service: 15 joins, start, simple choices in every phase
until the end, export, and the replay confirms every roll."""

from __future__ import annotations

import json
from argparse import Namespace
from pathlib import Path

import pytest

from bot.cli import verify
from bot.core.dispatch import Dispatcher, MemorySender
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.features.replay.export import export_game
from bot.features.replay.verify import verify_log
from tests.service.helpers import play_to_end, started


async def test_fifteen_player_game_to_the_end_then_verify(db: Database, tmp_path: Path) -> None:
    game_id = await started(db, 15, seed="full-game-seed")
    advances = await play_to_end(db, game_id)
    info = await get_game(db, game_id)
    assert info.status == "over" and info.winners
    sender = MemorySender()
    await Dispatcher(db, sender).drain()
    types = sender.types()
    assert types.count("sheet") == 15
    assert types[-1] == "seed_revealed"
    assert sum(1 for m in sender.delivered if m.payload.get("type") == "phase_started") == advances  # start + each advance but the last

    log = await export_game(db, game_id)
    assert log["game"]["seed"] == "full-game-seed"
    assert len(log["steps"]) == advances + 1
    report = verify_log(log)
    assert report.ok, report.mismatch
    assert report.rolls > 0 and report.steps == advances + 1

    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    assert verify.run(Namespace(log=path)) == 0
    # Tamper with one roll: verify names the first mismatch and exits 1.
    step = next(s for s in log["steps"] if s["rolls"])
    step["rolls"][0]["result"] += 1
    path.write_text(json.dumps(log))
    assert verify.run(Namespace(log=path)) == 1


@pytest.mark.parametrize("content", ["not json", "{}", '{"format": "wolfhowl-log", "game": {}, "steps": []}'])
def test_verify_refuses_bad_files(tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert verify.run(Namespace(log=path)) == 2
    err = capsys.readouterr().err
    assert "wolfhowl verify" in err and "Traceback" not in err
    assert verify.run(Namespace(log=tmp_path / "missing.json")) == 2




async def test_verify_catches_every_kind_of_tampering(db: Database) -> None:
    """Whatever is changed in a finished game's log — the seed, a player's submission, a
    roll, an event, the stored state — the replay names the first step that disagrees."""
    import copy

    game_id = await started(db, 6, seed="tamper-seed-01")
    await play_to_end(db, game_id)
    log = await export_game(db, game_id)
    assert verify_log(log).ok

    def tampered(change) -> str:
        bad = copy.deepcopy(log)
        change(bad)
        report = verify_log(bad)
        assert not report.ok
        return report.summary()

    def other_seed(bad):
        bad["game"]["seed"] = "tamper-seed-02"

    assert "seed: its SHA-256 is not the one published at the start" in tampered(other_seed)

    day = next(s for s in log["steps"] if s["kind"] == "advance" and s["phase"] == "day")

    def other_number(bad):
        subs = next(s for s in bad["steps"] if s["seq"] == day["seq"])["inputs"]["submissions"]
        grail = next(x for entries in subs.values() for x in entries if x.get("kind") == "grail")
        grail["number"] = 101 - grail["number"] if grail["number"] != 50 else 7

    assert f"step {day['seq']} (advance" in tampered(other_number)

    def extra_roll(bad):
        step = next(s for s in bad["steps"] if s["rolls"])
        step["rolls"].append(dict(step["rolls"][-1]))

    assert "rolls in the log" in tampered(extra_roll)

    def other_event(bad):
        step = next(s for s in bad["steps"] if s["events"])
        step["events"][0]["seat"] = (step["events"][0].get("seat") or 0) + 1

    assert "event #1 differs" in tampered(other_event)

    def other_score(bad):
        last = bad["steps"][-1]["state"]
        last["scores"] = {k: v + 1 for k, v in last["scores"].items()}

    assert "state field 'scores' differs" in tampered(other_score)

    def cut_short(bad):
        del bad["steps"][-1]

    assert "steps are missing" in tampered(cut_short)

    def only_the_start(bad):
        del bad["steps"][1:]

    assert "recorded as over" in tampered(only_the_start)

    def other_rules(bad):
        bad["game"]["settings"]["win_score"] = 99

    assert "setting 'win_score'" in tampered(other_rules)


async def test_verify_refuses_a_malformed_log_without_a_traceback(db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import copy

    game_id = await started(db, 6, seed="malformed-seed-01")
    await play_to_end(db, game_id)
    log = await export_game(db, game_id)
    bad_seat = copy.deepcopy(log)
    bad_seat["steps"].insert(1, {**bad_seat["steps"][1], "kind": "remove", "inputs": {"seat": 99}})
    infinite = copy.deepcopy(log)
    infinite["steps"][1]["seq"] = float("inf")
    path = tmp_path / "bad.json"
    for bad in (bad_seat, infinite):
        path.write_text(json.dumps(bad))
        assert verify.run(Namespace(log=path)) == 2
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert verify.run(Namespace(log=path)) == 2
    err = capsys.readouterr().err
    assert err.count("wolfhowl verify") == 3 and "Traceback" not in err
