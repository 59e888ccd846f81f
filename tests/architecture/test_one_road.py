"""One road stores what a player sends: ``handle`` of a command dataclass
(``bot/features/play/commands.py``). Nothing else in the service stores a submission but the
AI seats' turn (``bot/features/ai_seats/play.py``), which plays through the same validation
and store; and the service's public names offer no other way to send one.

One road does what a moderator asks: ``moderate`` of a command dataclass
(``bot/features/moderation/commands.py``), which checks the moderator. No module of the
user interface calls a use case a moderator's command is handled by but through it."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.features.moderation import commands as moderator_commands
from bot.features.play.commands import handle
from tests.architecture.house import ROOT, service_files, ui_files

# Who may call the store of a submission: the one road for players, the AI seats' turn,
# and the module that defines it.
STORERS = {"bot/features/play/commands.py", "bot/features/ai_seats/play.py", "bot/features/play/submissions.py"}


def public_functions(paths: list[Path]) -> set[str]:
    """The names of the public functions defined at the top of ``paths``."""
    return {
        node.name
        for path in paths
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_")
    }


def stores_in(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Every call of ``store(...)`` or ``x.store(...)`` in ``paths`` outside STORERS."""
    found = []
    for path in paths:
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
    assert stores_in(service_files()) == []


def test_the_service_offers_one_entry_for_a_submission():
    """Outside the play feature (whose ``handle`` is the road), no public function of the
    service is named as a way to send something."""
    elsewhere = [p for p in service_files() if "play" not in p.relative_to(ROOT).parts]
    senders = [n for n in public_functions(elsewhere) if n.startswith(("submit", "add_action", "add_guess", "toggle_", "withdraw")) or n.endswith("_piece")]
    assert senders == []
    assert callable(handle)


def test_the_check_sees_a_store(tmp_path):
    """The check above could fail: both forms of the call are found."""
    rogue = tmp_path / "bot" / "service" / "rogue.py"
    rogue.parent.mkdir(parents=True)
    rogue.write_text("async def f(s, turn):\n    await store(s)\n    await turn.store(s)\n")
    assert stores_in([rogue], tmp_path) == ["bot/service/rogue.py:2", "bot/service/rogue.py:3"]


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
    """The service's public functions the handlers of ``moderate`` call, and those of
    their modules that do the same on a unit of work of their own (the function that
    opens the table and calls the handled one)."""
    tree = ast.parse(Path(moderator_commands.__file__).read_text(encoding="utf-8"))
    called = {name for node in ast.walk(tree) if (name := _called(node)) is not None}
    handled = (called & public_functions(service_files())) - SHARED_READS - {"moderate"}
    wrappers = set()
    for path in service_files():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.AsyncFunctionDef) and not node.name.startswith("_"):
                calls = {name for inner in ast.walk(node) if (name := _called(inner)) is not None}
                if calls & handled and node.name not in handled:
                    wrappers.add(node.name)
    return handled | (wrappers & WRAPPERS)


SERVICE = ("bot.core", "bot.features")
# The use cases of a unit of work of their own that call a moderator's (for the tools
# and the tests), which the user interface may not call either.
WRAPPERS = {
    "start_game", "update_settings", "advance_phase", "extend_deadline", "pause_game", "resume_game", "offer_seat",
    "replace_player", "kick_from_lobby", "remove_player", "end_game", "cancel_game", "phase_status", "export_game",
}  # fmt: skip


def moderator_calls_in(paths: list[Path], names: set[str], root: Path = ROOT) -> list[str]:
    """Every import of one of ``names`` from the service (or call of one by attribute)
    in ``paths`` (but UNASKED's)."""
    found = []
    for path in paths:
        name = path.relative_to(root).as_posix()
        allowed = UNASKED.get(name, set())
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # The names a module of the service is bound to here (``from bot.features.x import y``).
        modules = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and (n.module or "").startswith(SERVICE) for a in n.names}
        modules |= {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names if a.name.startswith(SERVICE)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                used = {a.name for a in node.names} if (node.module or "").startswith(SERVICE) else set()
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                used = {node.func.attr} if node.func.value.id in modules else set()
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                used = {node.func.id} & modules  # (a function imported from the service)
            else:
                used = set()
            if (used & names) - allowed:
                found.append(f"{name}:{getattr(node, 'lineno', 0)}")
    return found


def test_the_handlers_are_the_moderators_use_cases():
    names = moderator_use_cases()
    assert {"create_game", "start", "change_settings", "advance_now", "extend", "pause", "resume"} <= names
    assert {"offer", "hand_over_seat", "kick", "remove_seat", "end", "cancel", "status_of", "log_of"} <= names
    assert names >= WRAPPERS  # (each still a use case of its own, for the tools and tests)


def test_the_discord_layer_moderates_only_through_the_one_road():
    assert moderator_calls_in(ui_files(), moderator_use_cases()) == []


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
        "from bot.features.moderation.moderation import end_game\nfrom bot.features.moderation import moderation as service\n"
        "async def f(db):\n    await service.pause_game(db, 1)\n    await end_game(db, 1)\n    await service.moderate(db, 1, 2)\n"
    )
    found = moderator_calls_in([rogue], {"pause_game", "end_game"}, tmp_path)
    assert found == ["bot/discord/rogue.py:1", "bot/discord/rogue.py:4", "bot/discord/rogue.py:5"]
