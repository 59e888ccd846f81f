"""The arrows between the packages point one way (DESIGN.md): the engine imports none of
the bot, the service none of the Discord layer, and no tool imports another tool."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("bot.docs_gen", "bot.scenario", "bot.sim")


def imports_of(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` with the modules it imports (absolute names)."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


def offenders(package: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{module} imports {name}"
        for module, names in imports_of(package).items()
        for name in sorted(names)
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


def test_the_engine_imports_nothing_of_the_bot():
    assert offenders("engine", ("bot", "discord", "sqlalchemy")) == []


def test_the_service_knows_nothing_of_discord():
    assert offenders("bot.service", ("discord", "bot.discord")) == []


@pytest.mark.parametrize("below", ["bot.i18n", "bot.render"])
def test_the_vocabulary_and_the_renderers_sit_below_the_tools(below):
    assert offenders(below, (*TOOLS, "bot.service", "bot.discord", "bot.db")) == []


@pytest.mark.parametrize("tool", TOOLS)
def test_no_tool_imports_another_tools_internals(tool):
    """A tool may use another through its package's public names, never its modules."""
    internals = tuple(f"{t}.{module.stem}" for t in TOOLS if t != tool for module in (ROOT / t.replace(".", "/")).glob("*.py"))
    assert offenders(tool, internals) == []


def test_the_check_sees_an_import(tmp_path):
    """The checks above could fail: a module that imports a tool is found."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("from bot.sim import runner\nimport os\n", encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert offenders("pkg", ("bot.sim",)) == ["pkg/a.py imports bot.sim"]
    finally:
        ROOT = saved


def test_every_module_says_what_it_holds():
    """Each module and package of the product opens with a docstring."""
    bare = [
        str(path.relative_to(ROOT))
        for top in ("engine", "bot", "discord_emulator", "bench", "tests")
        for path in sorted((ROOT / top).rglob("*.py"))
        if "versions" not in path.parts and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert bare == []
