"""What the Docker image does, without Docker: build the wheel from exactly the files the
Dockerfile copies, install it, delete the sources (as the image does), and check that the
installed package alone migrates a database and finds its class data, catalogues, fonts
and rules templates. A file the Dockerfile forgets to copy, or package data the wheel
leaves out, fails here rather than in a deployment."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import asyncio, sys
from bot.db import migrate
from bot.i18n.catalog import catalogue as messages
from bot.render.fonts import CJK_FONT
from bot.render.chart import scoreboard_png
from engine.classes import catalogue as classes
import discord_emulator

for package in ("bot", "engine", "discord_emulator"):  # the installed copy, not this checkout
    assert __import__(package).__file__.startswith(sys.argv[1]), __import__(package).__file__
asyncio.run(migrate.upgrade(sys.argv[2]))
assert asyncio.run(migrate.current(sys.argv[2])) == migrate.head_revision()
assert len(classes()) == 11
assert messages("zh-CN") and messages("en-US")
assert scoreboard_png({"lawful": 3, "neutral": 15, "chaotic": 2}, ["neutral"], "zh-CN")[:4] == b"\\x89PNG"
print("ok", CJK_FONT)
"""


def copied_paths(dockerfile: str) -> list[str]:
    """The sources of every COPY line (the last word is the destination)."""
    paths: list[str] = []
    for line in dockerfile.splitlines():
        words = line.split()
        if words[:1] == ["COPY"]:
            paths += [w for w in words[1:-1] if not w.startswith("--")]
    return paths


def test_the_image_installs_a_package_that_runs_without_its_sources(tmp_path: Path) -> None:
    paths = copied_paths((ROOT / "Dockerfile").read_text(encoding="utf-8"))
    assert {"pyproject.toml", "engine", "bot", "discord_emulator", "migrations"} <= set(paths)
    src = tmp_path / "app"
    src.mkdir()
    for name in paths:
        if (ROOT / name).is_dir():  # COPY keeps symbolic links (bot/db/migrations) as links
            shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, src / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    built = subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path / "wheel"), str(src)],
        capture_output=True, text=True,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel,) = (tmp_path / "wheel").glob("wolfhowl-*.whl")
    site = tmp_path / "site"
    installed = subprocess.run([*pip, "install", "--no-deps", "--target", str(site), str(wheel)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr[-2000:]
    shutil.rmtree(src)  # the image deletes the source tree after installing
    assert (site / "bin" / "wolfhowl").exists()
    db = f"sqlite:///{tmp_path / 'var' / 'wolfhowl.sqlite3'}"
    ran = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); exec({CHECK!r})", str(site), db],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert ran.stdout.startswith("ok")
