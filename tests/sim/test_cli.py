"""``wolfhowl simulate``: the JSON shape, determinism by seed, the plot, bad arguments."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bot.ai.runner import play_game, play_many
from bot.cli import simulate

TIMING = ("seconds", "games_per_second", "jobs")


def main(argv: list[str]) -> int:
    """``wolfhowl simulate ARGV``: the subcommand's own parser and run."""
    parser = argparse.ArgumentParser(prog="wolfhowl simulate")
    simulate.add_arguments(parser)
    return simulate.run(parser.parse_args(argv))


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["--json", *argv]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "one JSON object on one line"
    return json.loads(out)


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    s = _json(capsys, "--games", "6", "--players", "9", "--seed", "shape")
    assert s["games"] == 6 and s["players"] == 9 and s["seed"] == "shape"
    assert set(s["faction_win_rate"]) == {"lawful", "neutral", "chaotic"}
    assert all(0.0 <= v <= 1.0 for v in s["faction_win_rate"].values())
    assert sum(s["faction_wins"].values()) >= 6  # a shared win counts for each sharer
    for key in ("median", "mean", "p90"):
        assert s["rounds"][key] >= 1
    assert s["games_per_second"] > 0
    for f, (lo, hi) in s["faction_win_interval"].items():
        assert lo <= s["faction_win_rate"][f] <= hi
    assert s["invalid_submissions"] == 0
    assert {"class_id", "faction", "survival", "kills", "grails"} <= set(s["roles"][0])


def test_same_seed_same_report(capsys: pytest.CaptureFixture[str]) -> None:
    a = _json(capsys, "--games", "5", "--players", "8", "--seed", "same")
    b = _json(capsys, "--games", "5", "--players", "8", "--seed", "same")
    c = _json(capsys, "--games", "5", "--players", "8", "--seed", "other")
    for d in (a, b, c):
        for key in TIMING:
            d.pop(key)
    assert a == b
    assert a != c


def test_house_rules_are_played_and_reported(capsys: pytest.CaptureFixture[str]) -> None:
    """Each house rule changes the games it plays (same seeds) and the report names it."""
    base = _json(capsys, "--games", "8", "--players", "9", "--seed", "house")
    assert base["house_rules"] == {"killing_blow": "steal", "departures": "dawn", "vote_damage": "public", "uneven_tables": "compensate"}
    for flag, value in (("--killing-blow", "killer_takes"), ("--departures", "morning"), ("--vote-damage", "private"), ("--uneven-tables", "off")):
        other = _json(capsys, "--games", "8", "--players", "9", "--seed", "house", flag, value)
        assert other["house_rules"][flag[2:].replace("-", "_")] == value
        assert other["invalid_submissions"] == 0
    e13 = _json(capsys, "--games", "8", "--players", "9", "--seed", "house", "--killing-blow", "killer_takes")
    assert [base[k] for k in ("steals_per_game", "grails_per_game")] != [e13[k] for k in ("steals_per_game", "grails_per_game")]


def test_jobs_do_not_change_the_games() -> None:
    one = play_many(6, players=7, seed="jobs", jobs=1)
    two = play_many(6, players=7, seed="jobs", jobs=2)
    assert one == two
    assert play_game("jobs:3", 7) == one[3]


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sim.png"
    assert main(["--games", "4", "--players", "6", "--seed", "plot", "--plot", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Faction wins" in text and "plot written" in text
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 10_000


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "--games: must be a whole number of 1 or more, not 0"),
        (["--games", "many"], "--games: must be a whole number, not 'many'"),
        (["--players", "5"], "--players: must be a whole number from 6 to 15, not 5"),
        (["--players", "16"], "--players: must be a whole number from 6 to 15, not 16"),
        (["--jobs", "0"], "--jobs: must be a whole number of 1 or more, not 0"),
        (["--plot", "chart.jpg"], "--plot: must be a .png file name"),
        (["--plot", "/no/such/folder/chart.png"], "does not exist"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["--departures", "noon"], "--departures: invalid choice: 'noon'"),
    ],
)
def test_bad_arguments_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "wolfhowl simulate: error:" in err and message in err


def test_wolfhowl_dispatches_to_simulate() -> None:
    """bot.cli's SUBCOMMANDS names this module; its parser takes our options."""
    from bot.cli import SUBCOMMANDS

    assert SUBCOMMANDS["simulate"][0] == simulate.__name__
    parser = argparse.ArgumentParser(prog="wolfhowl simulate")
    simulate.add_arguments(parser)
    args = parser.parse_args(["--games", "3", "--players", "6", "--json"])
    assert (args.games, args.players, args.jobs, args.seed, args.json, args.plot) == (3, 6, 1, "0", True, None)


def test_a_plot_path_that_cannot_be_written_is_refused_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "chart.png"
    folder.mkdir()
    with pytest.raises(SystemExit) as exc:
        main(["--games", "1", "--plot", str(folder)])
    assert exc.value.code == 2 and "is a folder" in capsys.readouterr().err


def test_a_line_up_is_played_as_set_and_reported(capsys: pytest.CaptureFixture[str]) -> None:
    """--lineup takes what /mod lineup takes: a preset at --players, or the classes of
    each faction (which give the number of players); every game deals exactly them."""
    own = _json(capsys, "--games", "4", "--seed", "lineup", "--lineup", "Paladin,Cleric/rogue,druid/ranger,bard")
    assert own["players"] == 6 and own["lineup"] == {"setting": "paladin,cleric/rogue,druid/ranger,bard", "classes": "paladin,cleric/rogue,druid/ranger,bard"}
    assert {(r["faction"], r["class_id"]) for r in own["roles"]} == {
        ("lawful", "paladin"), ("lawful", "cleric"), ("neutral", "rogue"), ("neutral", "druid"), ("chaotic", "ranger"), ("chaotic", "bard"),
    }  # fmt: skip
    assert all(r["seats"] == 4 for r in own["roles"])  # each role in each of the 4 games
    varied = _json(capsys, "--games", "2", "--players", "11", "--seed", "lineup", "--lineup", "varied")
    assert varied["lineup"]["setting"] == "varied" and len({r["class_id"] for r in varied["roles"]}) == 11


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--lineup", "fancy"], "no preset called “fancy”"),
        (["--lineup", "warrior,monk/barbarian,druid/bard,ranger", "--players", "9"], "it seats 6 players and the table has 9"),
        (["--lineup", "warrior,warrior/barbarian,druid/bard,ranger"], "Lawful names Warrior twice"),
    ],
)
def test_a_bad_line_up_exits_2_before_any_game(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wolfhowl simulate: --lineup: ") and message in err
