"""No handler wakes the bot's loops: a unit of work signals "messages written" and
"deadline moved" once it commits (bot.db.signals), and the loops listen. A wake left to
each handler is one that some handler forgets, and its messages wait for the next poll."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The loops themselves and the bot that wires them to the signals.
LOOPS = {"bot/core/background.py", "bot/discord/client.py", "bot/discord/loops/dispatcher.py", "bot/discord/loops/scheduler.py"}
WAKE = re.compile(r"\bwake_(?:dispatcher|scheduler)\(|\b(?:dispatcher|scheduler)\.wake\(")


def wakes_in(folder: Path) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name in LOOPS:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if WAKE.search(line):
                found.append(f"{name}:{n}: {line.strip()}")
    return found


def test_no_handler_wakes_a_loop():
    assert wakes_in(ROOT / "bot" / "discord") + wakes_in(ROOT / "bot" / "features") == []


def test_nothing_in_the_service_or_the_database_wakes_a_loop_by_hand():
    assert wakes_in(ROOT / "bot" / "core") + wakes_in(ROOT / "bot" / "db") == []


def test_the_check_sees_a_wake(tmp_path, monkeypatch):
    """The checks above could fail: each form of a wake is found."""
    handler = tmp_path / "bot" / "discord" / "commands" / "x.py"
    handler.parent.mkdir(parents=True)
    handler.write_text("ctx.bot.wake_dispatcher()\nbot.wake_scheduler()\nself.bot.dispatcher.wake()\nbot.scheduler.wake()\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert len(wakes_in(tmp_path / "bot" / "discord")) == 4
