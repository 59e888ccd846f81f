"""The Discord layer imports its project modules at the top: no import inside a function
to get round an import circle (one only where the function's docstring says why, with
the words "imported here"), and no circle among the bot's modules at run time."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.import_circles import circles, graph

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("bot", "engine", "discord_emulator")
WHY = "imported here"


def function_imports(path: Path) -> list[str]:
    """``line: module`` of each import of a project module inside a function of
    ``path`` whose docstring does not say why."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or WHY in (ast.get_docstring(node) or ""):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                names = [inner.module]
            elif isinstance(inner, ast.Import):
                names = [a.name for a in inner.names]
            else:
                continue
            found += [f"{inner.lineno}: {name}" for name in names if name.split(".")[0] in PROJECT]
    return found


def test_the_discord_layer_imports_its_project_modules_at_the_top() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in sorted((ROOT / "bot" / "discord").rglob("*.py"))
        for where in function_imports(path)
    ]
    assert found == []


def test_the_bot_has_no_import_circle_at_run_time() -> None:
    """Not in the Discord layer, the service, the database layer nor between them (an
    import of a package's module by name counts as an arrow to that module)."""
    assert circles(graph("bot", runtime=True)) == []


def test_the_checks_see_an_import_in_a_function_and_a_circle(tmp_path: Path) -> None:
    """The checks above could fail: a hidden import and a circle are found, and a
    function that says why it imports inside is let be."""
    module = tmp_path / "a.py"
    module.write_text(
        "def f():\n    from bot.discord import payload\n\n"
        "def g():\n    '''The client is imported here: it is heavy.'''\n    from bot.discord import client\n",
        encoding="utf-8",
    )
    assert function_imports(module) == ["2: bot.discord"]
    assert circles({"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}) == [["p.a", "p.b", "p.c"]]
