"""One road stores what a player sends: ``bot.service.handle`` of a command dataclass
(``bot/service/commands.py``). Nothing else in the service stores a submission but the
AI seats' turn (``ai_play.py``), which plays through the same validation and store; and
the service's public names offer no other way to send one."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.service as service

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "bot" / "service"
# Who may call the store of a submission: the one road for players, the AI seats' turn,
# and the module that defines it.
STORERS = {"bot/service/commands.py", "bot/service/ai_play.py", "bot/service/submissions.py"}


def stores_in(folder: Path, root: Path = ROOT) -> list[str]:
    """Every call of ``store(...)`` or ``x.store(...)`` under ``folder`` outside STORERS."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name in STORERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                if called == "store":
                    found.append(f"{name}:{node.lineno}")
    return found


def test_only_the_one_road_stores_a_submission():
    assert stores_in(SERVICE) == []


def test_the_service_offers_one_entry_for_a_submission():
    senders = [n for n in service.__all__ if n.startswith(("submit", "add_", "toggle_", "withdraw")) or n.endswith("_piece")]
    assert senders == []
    assert callable(service.handle)


def test_the_check_sees_a_store(tmp_path):
    """The check above could fail: both forms of the call are found."""
    rogue = tmp_path / "bot" / "service" / "rogue.py"
    rogue.parent.mkdir(parents=True)
    rogue.write_text("async def f(s, turn):\n    await store(s)\n    await turn.store(s)\n")
    assert stores_in(tmp_path / "bot" / "service", tmp_path) == ["bot/service/rogue.py:2", "bot/service/rogue.py:3"]
