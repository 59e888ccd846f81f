"""`wolfhowl demo`, the README's main command, as a user runs it: a separate process that
plays a whole game on the built-in local Discord and prints it, in either language."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def demo(*args: str, columns: int = 300) -> str:
    """The demo's output, by default printed wide enough that no line wraps."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "demo", "--players", "6", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=240, env={**os.environ, "COLUMNS": str(columns)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return done.stdout


def test_the_demo_plays_a_whole_game_and_prints_the_channel_and_the_dms(tmp_path: Path):
    out = demo("--seed", "demo-test-1", "--show-dms", "--save-attachments", str(tmp_path / "files"))
    # What the bot attached is saved: the scoreboard chart, a PNG.
    saved = sorted((tmp_path / "files").iterdir())
    assert [p.name.split("-", 1)[1] for p in saved] == ["scoreboard.png"] and saved[0].read_bytes()[:4] == b"\x89PNG"
    assert f"1 attached file saved in {tmp_path / 'files'}: {saved[0].name}" in out
    # Each phase closes after the one before it (minutes of the day, across midnight too).
    closes = [int(h) * 60 + int(m) for h, m in re.findall(r"Closes (\d\d):(\d\d)", out)]
    assert len(closes) >= 6 and all(0 <= (b - a) % 1440 < 720 for a, b in itertools.pairwise(closes)), closes
    assert "game over — winners:" in out and "(0 unanswered, 0 refused)" in out and "Emulator errors: 0." in out
    assert "the game channel as everyone sees it" in out
    assert "🐺 The game begins" in out and "Game over" in out and "Seed: " in out
    assert out.count("— private messages") == 6  # each player's DMs, with --show-dms
    assert "Keep it secret." in out
    # The same seed plays the same game.
    again = demo("--seed", "demo-test-1", "--show-dms", "--quiet")
    result = re.compile(r"winners: .*?; \d+ rounds?, \d+ phases")
    assert result.search(out) and result.search(out).group() == result.search(again).group()


def test_the_demo_of_a_slow_game_with_absent_players():
    out = demo("--seed", "demo-absent", "--absent", "--show-dms")
    # No interaction refused: the players aim at a seat handed over by its new name (as
    # the table's replacement line gives it), and none plays a phase already closed.
    assert "game over — winners:" in out and "(0 unanswered, 0 refused)" in out and "Emulator errors: 0." in out
    assert "missed phases in a row" in out or "Miss one more phase" in out  # the warnings
    assert "A seat is free in game #1" in out and "[Accept the seat]" in out  # the standby's offer
    assert "takes over seat" in out  # the table's replacement line
    assert "A moderator has removed a player" in out  # the other seat


@pytest.mark.parametrize("lang", ["zh-CN"])
def test_the_demo_in_chinese(lang: str):
    out = demo("--seed", "demo-test-2", "--lang", lang, "--show-dms", columns=80)
    assert "🐺 游戏开始" in out and "游戏结束" in out and "种子：" in out
    assert "The game begins" not in out  # public posts follow the game's language
    # The demo's own frame is in the game's language too.
    lines = out.splitlines()
    assert lines[0].startswith("wolfhowl demo — 6名玩家，种子demo-test-2，")
    assert "#tavern — 所有人看到的游戏频道" in out
    assert out.count("）— 私信") == 6 and re.search(r"#1 \S+（zh-CN）— 私信", out)  # each player named as everywhere
    summary = out[out.rindex("─\n") + 2 :]  # after the last rule
    assert summary.startswith("游戏结束 — 获胜阵营：") and "次交互（0次未应答，0次被拒绝）" in summary.replace("\n", "")
    for english in ("as everyone sees it", "— private messages", "game over — winners", "interactions (", "Emulator errors"):
        assert english not in out
    # Chinese wraps as it is read: no line of a post begins with closing punctuation or
    # ends with opening punctuation, and a long sentence fills the line before it breaks.
    posts = [x.strip(" │") for x in lines if x.startswith("  ")]
    assert not [x for x in posts if x[:1] in "。，、：；！？）」』”"]
    assert not [x for x in posts if x[-1:] in "（「『“"]
    assert not [x for x in posts if x.endswith("— 请用")]  # not "— 请用" / "/圣杯（/grail）提交…"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--speed", "0"], "--speed must be above 0"),
        (["--speed", "-1"], "--speed must be above 0"),
        (["--database", "notaurl"], "is not a database URL"),
        (["--players", "5"], "--players must be 6 to 15"),
    ],
)
def test_bad_demo_options_are_refused_at_once(args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "bot.cli", "demo", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_the_demo_of_a_practice_game():
    out = demo("--practice", "--seed", "demo-practice")
    assert "game over — winners:" in out and "(0 unanswered, 0 refused)" in out and "Emulator errors: 0." in out
    assert "DM with the bot — the practice game" in out
    assert "Practice game #1 started" not in out  # the answer to /practice is the person's alone
    for phase in ("Day (grail numbers)", "Dusk (identifications and orders)", "Morning (the vote)"):
        assert out.count(f"Practice — {phase}") == 1, phase
    assert "🤖" in out and "[Replay]" in out


def test_the_demo_with_spectators_who_watch_and_predict():
    out = demo("--seed", "demo-spectators", "--spectators", "3")
    assert "game over — winners:" in out and "(0 unanswered, 0 refused)" in out and "Emulator errors: 0." in out
    # The gallery is printed: each round's menu, and the scores at the end naming them.
    assert "🔮 Round 1: who will win?" in out and "[Predict the winning faction]" in out
    assert "🔮 The forecasters' scores" in out and all(f"@spectator{i}" in out for i in (1, 2, 3))
    found = re.search(r"Gallery: 3 spectators watched and made (\d+) predictions \((\d+) after their round closed, 0 refused\)\.", out)
    assert found and int(found.group(1)) >= 3, out[-600:]
