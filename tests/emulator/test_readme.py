"""The plain discord.py bot in discord_emulator/README.md runs as written, in a fresh
interpreter: a reader who copies it gets a slash command answered on the local Discord."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_example_runs(tmp_path: Path) -> None:
    text = (ROOT / "discord_emulator" / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", text, re.S)[1]
    probe = "\nimport sys\nprint(sorted(m for m in sys.modules if m.split('.')[0] in ('bot', 'engine')))\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", example + probe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"  # it ran without loading anything of the game
