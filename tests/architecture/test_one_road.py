"""One road stores what a player sends: ``bot.service.handle`` of a command dataclass
(``bot/service/commands.py``). Nothing else in the service stores a submission but the
AI seats' turn (``ai_play.py``), which plays through the same validation and store; and
the service's public names offer no other way to send one.

One road does what a moderator asks: ``bot.service.moderate`` of a command dataclass
(``bot/service/moderator_commands.py``), which checks the moderator. No module of the
Discord layer calls a use case a moderator's command is handled by but through it."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.service as service
from bot.service import moderator_commands

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


DISCORD = ROOT / "bot" / "discord"
# The service's public names a read of anyone's may call besides the moderator's road.
SHARED_READS = {"get_game"}
# A use case a moderator's command is handled by, called by the bot itself for no one:
# a game whose channel is gone is cancelled (``loops/orphans.py``).
UNASKED = {"bot/discord/loops/orphans.py": {"cancel_game"}}


def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        func = node.func
        return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return None


def moderator_use_cases() -> set[str]:
    """The service's public functions the handlers of ``moderate`` call."""
    tree = ast.parse(Path(moderator_commands.__file__).read_text(encoding="utf-8"))
    called = {name for node in ast.walk(tree) if (name := _called(node)) is not None}
    return (called & set(service.__all__)) - SHARED_READS - {"moderate"}


def moderator_calls_in(folder: Path, names: set[str], root: Path = ROOT) -> list[str]:
    """Every call or import of one of ``names`` under ``folder`` (but UNASKED's)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        allowed = UNASKED.get(name, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            used = {a.name for a in node.names} if isinstance(node, ast.ImportFrom) else {_called(node)}
            if (used & names) - allowed:
                found.append(f"{name}:{getattr(node, 'lineno', 0)}")
    return found


def test_the_handlers_are_the_moderators_use_cases():
    names = moderator_use_cases()
    assert {"create_game", "start_game", "update_settings", "advance_phase", "extend_deadline", "pause_game", "resume_game"} <= names
    assert {"offer_seat", "replace_player", "kick_from_lobby", "remove_player", "end_game", "cancel_game", "phase_status", "export_game"} <= names


def test_the_discord_layer_moderates_only_through_the_one_road():
    assert moderator_calls_in(DISCORD, moderator_use_cases()) == []


def test_every_moderator_command_has_its_handler():
    commands = [
        c for c in vars(moderator_commands).values()
        if isinstance(c, type) and issubclass(c, moderator_commands.ModeratorCommand) and c.__module__ == moderator_commands.__name__
    ]
    bases = {moderator_commands.ModeratorCommand, moderator_commands.GameCommand, moderator_commands.ServerCommand}
    assert len(commands) > 15
    assert [c.__name__ for c in commands if c not in bases and c not in moderator_commands.HANDLERS] == []


def test_the_moderator_check_sees_a_call(tmp_path):
    """The check above could fail: a call by attribute or by name, and an import, are found."""
    rogue = tmp_path / "bot" / "discord" / "rogue.py"
    rogue.parent.mkdir(parents=True)
    rogue.write_text(
        "from bot.service.moderation import end_game\n"
        "async def f(db):\n    await service.pause_game(db, 1)\n    await end_game(db, 1)\n    await service.moderate(db, 1, 2)\n"
    )
    found = moderator_calls_in(tmp_path / "bot" / "discord", {"pause_game", "end_game"}, tmp_path)
    assert found == ["bot/discord/rogue.py:1", "bot/discord/rogue.py:3", "bot/discord/rogue.py:4"]
