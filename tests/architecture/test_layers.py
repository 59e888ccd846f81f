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


def _imports_in_functions(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) of every ``from ... import`` inside a function of ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                    found.append((inner.lineno, inner.module, [a.name for a in inner.names]))
    return found


def _private_imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("bot", "engine", "discord_emulator"):
            names += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    return names


def test_no_module_imports_another_modules_private_names():
    """A name with a leading underscore is its module's own: another module that needs it
    needs it made public (or moved where both can import it)."""
    found = [
        f"{path.relative_to(ROOT)} imports {name}"
        for top in ("engine", "bot", "discord_emulator")
        for path in sorted((ROOT / top).rglob("*.py"))
        for name in _private_imports(path)
    ]
    assert found == []


def test_the_service_imports_its_own_modules_at_the_top():
    """No import of a project module inside a service function (once the way around an
    import circle): the command-line front ends (``*_cli.py``), which load the database
    layer only when run, are the exception."""
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / "bot" / "service").glob("*.py"))
        if not path.name.endswith("_cli.py")
        for line, module, _ in _imports_in_functions(path)
        if module.split(".")[0] in ("bot", "engine")
    ]
    assert found == []
