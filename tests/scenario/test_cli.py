"""``wolfhowl scenario`` as a moderator runs it: a subprocess, its output and exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
ROOT = EXAMPLES.parents[1]


def wolfhowl(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run ``wolfhowl scenario`` in a subprocess (``python -m bot.cli``: the dispatcher
    imports the chosen subcommand only)."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "scenario", *map(str, args)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )


def test_the_wolfhowl_dispatcher_runs_it() -> None:
    ok = wolfhowl(EXAMPLES / "vote-tie.toml")
    assert ok.returncode == 0, ok.stderr
    assert "vote counts" in ok.stdout.lower() or "Votes" in ok.stdout
    bad = wolfhowl(EXAMPLES / "missing.toml")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_one_run_prints_events_with_audiences_and_rolls() -> None:
    r = wolfhowl(EXAMPLES / "warrior-attacks-grail-carrier.toml", "--seed", "7")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "seed '7'" in out
    assert "[audit]" in out and "[private → #1 Ada]" in out
    assert "#1 Ada → #2 Bo (attack): d100" in out
    assert "Rolls:" in out and "initiative: d20 =" in out and "attack:2: d100 =" in out
    assert "Next phase: Morning" in out


def test_same_seed_same_output_and_another_seed_differs() -> None:
    a = wolfhowl(EXAMPLES / "monk-grapple.toml", "--seed", "x").stdout
    b = wolfhowl(EXAMPLES / "monk-grapple.toml", "--seed", "x").stdout
    c = wolfhowl(EXAMPLES / "monk-grapple.toml", "--seed", "y").stdout
    assert a == b != c


def test_chinese_output() -> None:
    r = wolfhowl(EXAMPLES / "vote-tie.toml", "--lang", "zh-CN")
    assert r.returncode == 0, r.stderr
    assert "推演" in r.stdout and "[公开]" in r.stdout and "得票" in r.stdout


def test_json_single_run() -> None:
    r = wolfhowl(EXAMPLES / "grail-allocation.toml", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["phase"] == "day"
    kinds = [e["kind"] for e in data["events"]]
    assert "GrailAllocated" in kinds and "GrailWon" in kinds
    assert all({"audience", "text"} <= set(e) for e in data["events"])
    assert any(roll["why"] == "grail-tie" for roll in data["rolls"])
    assert data["after"]["phase"] == "dusk"


def test_json_repeat() -> None:
    r = wolfhowl(EXAMPLES / "grail-allocation.toml", "--repeat", "400", "--json", "--seed", "s")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["runs"] == 400 and data["base_seed"] == "s"
    # The mean is 50, seats 2 (40) and 3 (60) tie: the roll gives each about half.
    assert set(data["grail"]) == {"seat 2", "seat 3"}
    assert 0.4 <= data["grail"]["seat 2"]["rate"] <= 0.6


def test_repeat_text_has_the_sections() -> None:
    r = wolfhowl(EXAMPLES / "warrior-attacks-grail-carrier.toml", "--repeat", "200")
    assert r.returncode == 0, r.stderr
    for heading in ("Grail at the end:", "Attacks (hit rate):", "Steals (success rate):", "HP at the end:"):
        assert heading in r.stdout


def test_bad_file_exit_2_names_the_field_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('phase = "dusk"\n[[players]]\nclass = "wizzard"\nfaction = "lawful"\n[[players]]\nclass = "warrior"\nfaction = "neutral"\nhp = 99\n', encoding="utf-8")
    r = wolfhowl(bad)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert f"{bad}: players[1].class: unknown class 'wizzard' (known: " in r.stderr


def test_rule_refusal_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "self.toml"
    bad.write_text('phase = "morning"\n[[players]]\nclass = "warrior"\nfaction = "lawful"\nvote = 1\n[[players]]\nclass = "warrior"\nfaction = "neutral"\n', encoding="utf-8")
    r = wolfhowl(bad)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "players[1].vote: You cannot target or vote for yourself." in r.stderr


def test_missing_file_broken_toml_and_bad_repeat(tmp_path: Path) -> None:
    r = wolfhowl(tmp_path / "nope.toml")
    assert r.returncode == 2 and "cannot read the file" in r.stderr and "Traceback" not in r.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text("phase = [\n", encoding="utf-8")
    r = wolfhowl(broken)
    assert r.returncode == 2 and "not valid TOML" in r.stderr and "Traceback" not in r.stderr
    r = wolfhowl(EXAMPLES / "vote-tie.toml", "--repeat", "0")
    assert r.returncode == 2 and "--repeat" in r.stderr
