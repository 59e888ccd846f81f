"""discord_emulator imports nothing of the game (``bot``, ``engine``), nor do its tests:
it is a library the bot uses like any other user of it would."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ("bot", "engine")


def game_imports(path: Path) -> list[str]:
    """``file:line module`` for every absolute import of a game package in ``path``,
    at any depth (inside functions and ``if TYPE_CHECKING:`` too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n.split(".")[0] in GAME]
    return found


def test_game_imports_are_found() -> None:
    sample = ROOT / "bot" / "sandbox" / "play_table.py"
    assert any(" bot." in hit for hit in game_imports(sample))


def test_the_emulator_and_its_tests_import_nothing_of_the_game() -> None:
    files = sorted((ROOT / "discord_emulator").rglob("*.py")) + sorted((ROOT / "tests" / "emulator").rglob("*.py"))
    assert len(files) > 20
    assert [hit for path in files for hit in game_imports(path)] == []


def test_loading_the_emulator_and_its_fixtures_loads_nothing_of_the_game() -> None:
    """What pytest loads for tests/emulator besides its test modules: the package, and
    the conftest files above them (the shared one imports the bot only in its fixtures)."""
    code = (
        "import sys\n"
        "import discord_emulator, discord_emulator.ready, tests.conftest, tests.emulator.conftest\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('bot', 'engine')))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
