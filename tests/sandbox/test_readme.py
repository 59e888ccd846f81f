"""The example at the top of bot/sandbox/README.md runs as written: a reader who copies it
gets the bot answering a slash command on the local Discord."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_example_runs(tmp_path):
    text = (ROOT / "bot" / "sandbox" / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", text, re.S)[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name in [k for k in env if k.startswith("WOLFHOWL_")]:
        del env[name]
    done = subprocess.run([sys.executable, "-c", example], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "sandbox.sqlite3").exists()
