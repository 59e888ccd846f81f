#!/usr/bin/env python3
"""One-step set-up and tasks, needing only Python 3.11+.

    python3 dev.py demo    # set up if needed, then play a whole game on the local Discord
    python3 dev.py test    # set up if needed, then lint, type-check and run every test, on
                           # every core (pytest-xdist; `-n 0` after it: in one process)
                           # (installing Debian's chromium and prometheus when root on
                           # Debian: see ensure_browser, ensure_prometheus)
    python3 dev.py setup   # only set up (or bring .venv up to date)
    python3 dev.py lock    # pin the newest versions pyproject.toml allows into constraints.txt

Set-up makes ``.venv`` and installs the project with its dev tools, at the versions
constraints.txt pins (the image installs the same ones); it is redone only when
pyproject.toml or constraints.txt changes. Any other arguments after ``demo`` go to
``wolfhowl demo``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".wolfhowl-installed"
CONSTRAINTS = ROOT / "constraints.txt"
LINTED = ("engine", "bot", "discord_emulator", "tests", "bench", "migrations", "dev.py")
# pytest-xdist: each test file whole on one worker, so that a file's module-scoped games are
# played once, the longest files first (tests/slow_first.py); `-n 0` after `test` runs it
# all in one process. Half as many workers again as cores: the longest files spend about
# half their time waiting on other processes (a bot killed and restarted, a deadline), and
# a third worker fills that wait.
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
PARALLEL = ("-n", str(max(2, CORES * 3 // 2)), "--dist", "loadfile", "--no-loadscope-reorder")


def ensure_env() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py itself may be run by an older python3
        sys.exit("Python 3.11 or newer is needed (this is {}.{}).".format(*sys.version_info[:2]))
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + CONSTRAINTS.read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want:
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("dev.py: installing wolfhowl and its dev tools into .venv", flush=True)
    run([str(BIN / "python"), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([str(BIN / "python"), "-m", "pip", "install", "--quiet", "-c", str(CONSTRAINTS), "-e", f"{ROOT}[dev]"])
    STAMP.write_text(want)


def lock() -> None:
    """Install the project with its dev tools into a scratch environment, unconstrained
    (the newest versions pyproject.toml's ranges allow today), and write what got
    installed to constraints.txt. Then `python3 dev.py test` checks them."""
    with tempfile.TemporaryDirectory(prefix="wolfhowl-lock-") as tmp:
        env = Path(tmp) / "venv"
        venv.EnvBuilder(with_pip=True).create(env)
        python = str(env / BIN.name / "python")
        run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
        run([python, "-m", "pip", "install", "--quiet", f"{ROOT}[dev]"])
        frozen = subprocess.run([python, "-m", "pip", "freeze", "--all"], capture_output=True, text=True, check=True).stdout
    # setuptools too (the dev tools build the wheel with it); not pip, which set-up
    # upgrades, nor wolfhowl itself ("wolfhowl @ file://...").
    pins = sorted((line for line in frozen.splitlines() if "==" in line and line.split("==")[0] != "pip"), key=str.lower)
    header = [
        "# Every package `python3 dev.py setup` and the Docker image install, pinned: CI tests",
        "# exactly what the image ships. Written by `python3 dev.py lock` (the newest versions",
        f"# pyproject.toml allows), on {date.today().isoformat()} with Python {sys.version.split()[0]}; not edited by hand.",
    ]
    CONSTRAINTS.write_text("\n".join(header + pins) + "\n")
    print(f"dev.py: {len(pins)} packages pinned in {CONSTRAINTS.name}")


def run(cmd: list[str]) -> None:
    result = subprocess.run(cmd, cwd=ROOT)
    if result.returncode != 0:
        sys.exit(result.returncode)


def ensure_browser() -> None:
    """The replay page is tested in a real headless Chromium (tests/browser.py). Where
    none is found and this runs as root on Debian, as CI does, Debian's ``chromium`` is
    installed; elsewhere those tests skip saying why (under CI=true they fail instead)."""
    sys.path.insert(0, str(ROOT))
    from tests.browser import find_browser

    if not find_browser():
        debian_install("chromium", "the replay's browser tests", "install chromium, or set WOLFHOWL_BROWSER")


def ensure_prometheus() -> None:
    """The metrics are checked by a real Prometheus and its ``promtool`` (tests/prometheus.py):
    where they are missing and this runs as root on Debian, as CI does, Debian's
    ``prometheus`` is installed; elsewhere those tests skip saying why (under CI=true they
    fail instead)."""
    sys.path.insert(0, str(ROOT))
    from tests.prometheus import find_prometheus, find_promtool

    if not (find_prometheus() and find_promtool()):
        debian_install("prometheus", "the metrics' Prometheus tests", "install prometheus")


def debian_install(package: str, tests: str, hint: str) -> None:
    """Install Debian's ``package`` for ``tests`` when root on Debian (as CI is); else
    say that those tests will skip, and how to have them run."""
    debian_root = os.name == "posix" and os.geteuid() == 0 and Path("/etc/debian_version").exists()
    if not (debian_root and shutil.which("apt-get")):
        print(f"dev.py: no {package} found: {tests} will skip ({hint})", flush=True)
        return
    print(f"dev.py: installing Debian's {package} for {tests}", flush=True)
    apt = ["apt-get", "-q", "-o", "DPkg::Lock::Timeout=600"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if subprocess.run([*apt, "install", "-y", package], cwd=ROOT, env=env).returncode != 0:
        # A fresh machine may not have the package lists yet.
        subprocess.run([*apt, "update"], cwd=ROOT, env=env)
        subprocess.run([*apt, "install", "-y", package], cwd=ROOT, env=env)


def test(extra: list[str]) -> None:
    ensure_browser()
    ensure_prometheus()
    print("== ruff", flush=True)
    run([str(BIN / "ruff"), "check", *(p for p in LINTED if (ROOT / p).exists())])
    print("== mypy engine (strict), bot, discord_emulator", flush=True)
    run([str(BIN / "mypy"), "engine", "bot", "discord_emulator"])
    print("== pytest", flush=True)
    run([str(BIN / "python"), "-m", "pytest", *PARALLEL, *extra])


def main(argv: list[str]) -> None:
    if not argv or argv[0] not in ("demo", "test", "setup", "lock"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if argv[0] == "lock":
        lock()
        return
    ensure_env()
    task, extra = argv[0], argv[1:]
    if task == "test":
        test(extra)
    elif task == "demo":
        run([str(BIN / "wolfhowl"), "demo", *extra])


if __name__ == "__main__":
    main(sys.argv[1:])
