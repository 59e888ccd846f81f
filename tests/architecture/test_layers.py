"""The arrows between the packages point one way (docs/architecture.md): the engine
imports none of the bot, the service none of the Discord layer, the AI only the engine,
no library imports a tool, no tool imports another tool's modules, and every
command-line front end lives in bot/cli, which nothing imports but the ``wolfhowl``
entry point."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from tests.architecture.import_circles import imported_by, module_name

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("bot.docs_gen", "bot.sandbox", "bot.scenario", "bot.sim")
CLI = "bot.cli"
PROJECT = ("bot", "engine", "discord_emulator")
# Modules outside bot/cli that parse a command line, and why they may.
FRONT_ENDS_ELSEWHERE = {
    # Build scripts that regenerate their own package's data files.
    "bot/i18n/make_zh_tw.py",
    "bot/render/fonts/make_subset.py",
}
# Where an import of a project module inside a function must say why in the docstring.
FUNCTION_IMPORTS_CHECKED = ("bot/ai", "bot/cli", "bot/db", "bot/discord", "bot/core", "bot/features")


def files_of(package: str) -> list[Path]:
    """The files of a package, or the one file of a module (``bot.config``)."""
    base = ROOT / package.replace(".", "/")
    return sorted(base.rglob("*.py")) if base.is_dir() else [base.with_suffix(".py")]


def imports_of(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` with the modules it imports (absolute names)."""
    found: dict[str, set[str]] = {}
    for path in files_of(package):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


def offenders(package: str, forbidden: tuple[str, ...]) -> list[str]:
    """The imports of ``forbidden`` by ``package``'s modules (but the build scripts', which
    read what their package's data is made for)."""
    return [
        f"{module} imports {name}"
        for module, names in imports_of(package).items()
        if module not in FRONT_ENDS_ELSEWHERE
        for name in sorted(names)
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


def layers_below_the_tools() -> list[str]:
    """The engine, the emulator and every package and module of the bot that is neither a
    tool nor bot/cli: the libraries (bot.ai, bot.db, bot.core, bot.features, bot.render, bot.i18n,
    the settings) and the Discord layer."""
    found = ["engine", "discord_emulator"]
    for path in sorted((ROOT / "bot").iterdir()):
        name = f"bot.{path.stem}"
        if name in (*TOOLS, CLI) or path.name.startswith(("_", ".")):
            continue
        if (path.is_dir() and (path / "__init__.py").exists()) or path.suffix == ".py":
            found.append(name)
    return found


def test_the_engine_imports_nothing_of_the_bot():
    assert offenders("engine", ("bot", "discord", "sqlalchemy")) == []


def test_the_ai_plays_through_the_engine_alone():
    """The baseline AI decides from what a player may know: it reads no database, no
    service and no Discord, so the service, the Discord layer and the tools can all use it."""
    outside = [
        f"{module} imports {name}"
        for module, names in imports_of("bot.ai").items()
        for name in sorted(names)
        if name.split(".")[0] in ("bot", "discord", "sqlalchemy") and not (name == "bot.ai" or name.startswith("bot.ai."))
    ]
    assert outside == []


def test_the_vocabulary_sits_below_the_service_and_discord():
    """The catalogues and their wording (bot.i18n) import nothing of the bot but the
    engine's data, and not the discord library: the service and every tool can word with
    them (tests/architecture/test_service_knows_no_discord.py holds the service's side)."""
    assert offenders("bot.i18n", (*TOOLS, "bot.core", "bot.features", "bot.discord", "bot.render", "bot.db", "discord")) == []


def feature_ui_imports(package: str, kinds: tuple[str, ...]) -> list[str]:
    """The imports by ``package``'s modules of a feature's modules named ``kinds``
    (``cog``, ``components``: ``bot.features.<name>.cog*``...), by name or as a module
    imported from its package (``from bot.features.play import components``)."""
    modules = {module_name(p, ROOT) for p in (ROOT / "bot").rglob("*.py")}
    return [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in files_of(package)
        if str(path.relative_to(ROOT)) not in FRONT_ENDS_ELSEWHERE
        for name in sorted(imported_by(path, modules))
        if name.startswith("bot.features.") and len(parts := name.split(".")) >= 4 and parts[3].startswith(kinds)
    ]


def test_the_shared_presentation_sits_below_the_discord_layer():
    """The shared presentation (bot.render: the answers' shared pieces, the outbox's
    renderers, a refusal's words) is the user interface's, so it may use discord.py's
    embeds and the service's values (bot.core, a feature's use cases); but not the Discord
    layer's core (bot.discord), a feature's cogs or components (their buttons join a
    message through ``RENDERERS.add_controls``), the database or a tool."""
    assert offenders("bot.render", (*TOOLS, "bot.discord", "bot.db")) == []
    assert feature_ui_imports("bot.render", ("cog", "components")) == []


def test_no_library_imports_a_tool_or_a_command_line():
    """The AI and the odds runner are a library (bot.ai) so that the service and the
    Discord layer can use them; the tools and bot/cli sit above everything else."""
    below = layers_below_the_tools()
    assert {"bot.ai", "bot.config", "bot.db", "bot.discord", "bot.i18n", "bot.render", "bot.core", "bot.features"} <= set(below)
    assert [o for package in below for o in offenders(package, (*TOOLS, CLI))] == []


@pytest.mark.parametrize("tool", TOOLS)
def test_no_tool_imports_another_tools_internals(tool):
    """A tool may use another through its package's public names, never its modules."""
    internals = tuple(f"{t}.{module.stem}" for t in TOOLS if t != tool for module in (ROOT / t.replace(".", "/")).glob("*.py"))
    assert offenders(tool, internals) == []


@pytest.mark.parametrize("tool", TOOLS)
def test_no_tool_imports_the_command_line(tool):
    assert offenders(tool, (CLI,)) == []


def test_only_the_entry_point_names_the_command_line():
    """``wolfhowl`` is ``bot.cli:main`` (``python -m bot.cli`` the same); the bench
    scripts, like the tools, run without it."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"wolfhowl": "bot.cli:main"}
    assert offenders("bench", (CLI,)) == []


def test_the_check_sees_an_import(tmp_path):
    """The checks above could fail: a module that imports a tool is found, and one that
    imports a feature's components."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("from bot.sim import runner\nimport os\n", encoding="utf-8")
    (tmp_path / "mod.py").write_text("import bot.cli\n", encoding="utf-8")
    (tmp_path / "pkg" / "b.py").write_text("from bot.features.play import components\nfrom bot.features.play import look\n", encoding="utf-8")
    (tmp_path / "bot" / "features" / "play").mkdir(parents=True)
    for name in ("components", "look"):
        (tmp_path / "bot" / "features" / "play" / f"{name}.py").write_text("", encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert offenders("pkg", ("bot.sim",)) == ["pkg/a.py imports bot.sim"]
        assert offenders("mod", (CLI,)) == ["mod.py imports bot.cli"]
        assert feature_ui_imports("pkg", ("cog", "components")) == ["pkg/b.py imports bot.features.play.components"]
    finally:
        ROOT = saved


def parses_a_command_line(path: Path) -> bool:
    """Whether ``path`` is a front end: it imports argparse or runs as ``__main__``."""
    if path.name == "__main__.py":
        return True
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name == "argparse" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "argparse":
            return True
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "__name__":
            return True
    return False


def test_command_lines_live_in_bot_cli():
    """Every argument-parsing front end (``wolfhowl ...``, ``python -m bot.cli.NAME``) is
    a module of bot/cli; the libraries and the tools hold none."""
    outside = [
        rel
        for top in PROJECT
        for path in sorted((ROOT / top).rglob("*.py"))
        if not (rel := path.relative_to(ROOT).as_posix()).startswith("bot/cli/")
        and rel not in FRONT_ENDS_ELSEWHERE
        and parses_a_command_line(path)
    ]
    assert outside == []
    # The exceptions are still front ends (else the list is stale).
    assert [rel for rel in sorted(FRONT_ENDS_ELSEWHERE) if not parses_a_command_line(ROOT / rel)] == []


def test_every_wolfhowl_subcommand_is_a_front_end_module():
    """Each subcommand names a module defining ``add_arguments`` and ``run``; all but
    ``wolfhowl run`` (FRONT_ENDS_ELSEWHERE) are modules of bot/cli."""
    from bot.cli import SUBCOMMANDS

    elsewhere = {rel.removesuffix(".py").replace("/", ".") for rel in FRONT_ENDS_ELSEWHERE}
    wrong = []
    for name, (module, _) in SUBCOMMANDS.items():
        tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        if not (module.startswith(CLI + ".") or module in elsewhere) or not {"add_arguments", "run"} <= defined:
            wrong.append(f"{name}: {module}")
    assert wrong == []


def test_every_module_says_what_it_holds():
    """Each module and package of the product opens with a docstring."""
    bare = [
        str(path.relative_to(ROOT))
        for top in ("engine", "bot", "discord_emulator", "bench", "tests")
        for path in sorted((ROOT / top).rglob("*.py"))
        if "versions" not in path.parts and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert bare == []


def _private_imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PROJECT:
            names += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    return names


def test_no_module_imports_another_modules_private_names():
    """A name with a leading underscore is its module's own: another module that needs it
    needs it made public (or moved where both can import it)."""
    found = [
        f"{path.relative_to(ROOT)} imports {name}"
        for top in PROJECT
        for path in sorted((ROOT / top).rglob("*.py"))
        for name in _private_imports(path)
    ]
    assert found == []


def project_imports_in_functions(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of a project module inside a function of ``path``
    whose docstring does not say why (a docstring that mentions the import)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or "import" in (ast.get_docstring(node) or ""):
            continue
        for inner in ast.walk(node):
            modules: list[str] = []
            if isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                modules = [inner.module]
            elif isinstance(inner, ast.Import):
                modules = [a.name for a in inner.names]
            found += [(inner.lineno, m) for m in modules if m.split(".")[0] in PROJECT]
    return found


def test_project_modules_are_imported_at_the_top():
    """No import of a project module inside a function (once the way around an import
    circle) in the AI, the database layer, the service, the Discord layer or the command
    lines, unless the function's docstring says why. A front end needs no late import to start fast: the
    dispatcher (bot.cli) imports the chosen subcommand's module alone."""
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for top in FUNCTION_IMPORTS_CHECKED
        for path in sorted((ROOT / top).rglob("*.py"))
        for line, module in project_imports_in_functions(path)
    ]
    assert found == []


def test_the_function_import_check_sees_one(tmp_path):
    """It finds a late import of a project module, and excuses one whose docstring says why."""
    path = tmp_path / "m.py"
    path.write_text(
        'def a():\n    from bot.db import models\n    import json\n\n'
        'def b():\n    """Imported here: at the top the import would close a circle."""\n    import engine\n',
        encoding="utf-8",
    )
    assert project_imports_in_functions(path) == [(2, "bot.db")]
