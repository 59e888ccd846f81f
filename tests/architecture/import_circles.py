"""Modules of a package caught in import circles.

    .venv/bin/python -m tests.architecture.import_circles [bot.discord] [--runtime] [--parents]

Reads every module of the package, draws an arrow for each import of another module of
the same package (at the top or inside a function; imports under ``if TYPE_CHECKING``
are left out with ``--runtime``; with ``--parents`` also to each package whose
``__init__`` the import runs first: those of the imported module's packages that the
importer is not in), and prints the
strongly connected components of more than one module (Tarjan's algorithm), largest
first, with the number of modules in circles.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def _packages_run(imported: str, importer: str) -> set[str]:
    """The packages whose ``__init__`` Python runs before ``imported`` when ``importer``
    imports it: every package that holds ``imported``, but ``importer`` itself and those
    that hold it (their ``__init__`` has run, or is running, before ``importer`` could)."""
    parts = imported.split(".")
    outer = {".".join(parts[:i]) for i in range(1, len(parts))}
    return {p for p in outer if importer != p and not importer.startswith(p + ".")}


def imported_by(path: Path, modules: set[str], runtime: bool = False) -> set[str]:
    """The modules ``path`` imports, at the top, inside functions and (unless ``runtime``)
    under ``if TYPE_CHECKING``: a submodule imported by name (``from p import m``) is that
    module when ``modules`` holds it, any other name its module; modules outside
    ``modules`` (a library's) are named as imported."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_lines(tree) if runtime else set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:  # a submodule by name, else a name of the module itself
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in modules else node.module)
    return found


def graph(package: str, runtime: bool = False, parents: bool = False, root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of ``package`` (under ``root``) with the modules of ``package`` it
    imports (with ``parents``, and the packages whose ``__init__`` such an import runs
    first)."""
    return {me: {n for n in names if n in modules} for me, names, modules in _arrows((package,), runtime, parents, root)}


def graph_with_libraries(packages: tuple[str, ...], parents: bool = True, root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of ``packages`` (under ``root``) with every module it imports, anywhere
    in it (inside functions and under ``if TYPE_CHECKING`` too): those of ``packages``
    (with ``parents``, and the packages whose ``__init__`` such an import runs first)
    and, as imported, those of libraries (``discord.ext``, ``sqlalchemy``)."""
    return {me: names for me, names, _ in _arrows(packages, False, parents, root)}


def _arrows(packages: tuple[str, ...], runtime: bool, parents: bool, root: Path) -> list[tuple[str, set[str], set[str]]]:
    paths = sorted(p for package in packages for p in (root / package.replace(".", "/")).rglob("*.py"))
    modules = {module_name(p, root) for p in paths}
    out = []
    for path in paths:
        me = module_name(path, root)
        found = imported_by(path, modules, runtime)
        if parents:
            found |= {p for name in found if name in modules for p in _packages_run(name, me)}
        out.append((me, found - {me}, modules))
    return out


def circles(arrows: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(arrows.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(arrows):
        if node not in index:
            visit(node)
    return sorted(found, key=len, reverse=True)


def main(argv: list[str]) -> None:
    package = next((a for a in argv if not a.startswith("-")), "bot.discord")
    arrows = graph(package, runtime="--runtime" in argv, parents="--parents" in argv)
    found = circles(arrows)
    for component in found:
        print(f"{len(component)} modules: {', '.join(component)}")
    print(f"{package}: {sum(map(len, found))} of {len(arrows)} modules in import circles")


if __name__ == "__main__":
    main(sys.argv[1:])
