#!/usr/bin/env python3
"""One-step set-up and tasks, needing only Python 3.11+.

    python3 dev.py demo    # set up if needed, then play a whole game on the local Discord
    python3 dev.py test    # set up if needed, then lint, type-check and run every test
    python3 dev.py setup   # only set up (or bring .venv up to date)

Set-up makes ``.venv`` and installs the project with its dev tools; it is redone only when
pyproject.toml changes. Any other arguments after ``demo`` go to ``wolfhowl demo``.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".wolfhowl-installed"
LINTED = ("engine", "bot", "tests", "bench", "migrations", "dev.py")


def ensure_env() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py itself may be run by an older python3
        sys.exit("Python 3.11 or newer is needed (this is {}.{}).".format(*sys.version_info[:2]))
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want:
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("dev.py: installing wolfhowl and its dev tools into .venv", flush=True)
    run([str(BIN / "python"), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([str(BIN / "python"), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[dev]"])
    STAMP.write_text(want)


def run(cmd: list[str]) -> None:
    result = subprocess.run(cmd, cwd=ROOT)
    if result.returncode != 0:
        sys.exit(result.returncode)


def test(extra: list[str]) -> None:
    print("== ruff", flush=True)
    run([str(BIN / "ruff"), "check", *(p for p in LINTED if (ROOT / p).exists())])
    print("== mypy --strict engine", flush=True)
    run([str(BIN / "mypy"), "engine"])
    print("== pytest", flush=True)
    run([str(BIN / "python"), "-m", "pytest", *extra])


def main(argv: list[str]) -> None:
    if not argv or argv[0] not in ("demo", "test", "setup"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    ensure_env()
    task, extra = argv[0], argv[1:]
    if task == "test":
        test(extra)
    elif task == "demo":
        run([str(BIN / "wolfhowl"), "demo", *extra])


if __name__ == "__main__":
    main(sys.argv[1:])
