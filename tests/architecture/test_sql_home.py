"""No use case builds a statement: the service calls repository functions named for what
it needs (``bot.db.repositories``, ``bot/db/repos/<area>.py``), and every statement lives
in the db layer. A module of the service (every one: ``tests.architecture.house``) may
import of SQLAlchemy only the session's type (``sqlalchemy.ext.asyncio``) and the errors
it catches (``sqlalchemy.exc``, and ``sqlalchemy.orm.exc`` for the ORM's), and calls
none of its constructors (``select(``, ``update(``, ``insert(``, ``delete(``). An entity
it holds it may still change, add, flush or delete through the session (the ORM's unit
of work): ``session.delete(entity)`` is a method, not a statement."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.house import ROOT, service_files

# What a module of the service may import of SQLAlchemy: the session's type, the errors
# it catches, and the ORM's errors, for the one it catches beyond those
# (``StaleDataError``: a game's version guard, which ``bot.core.advance`` turns into a
# concurrent change; SQLAlchemy defines it in ``sqlalchemy.orm.exc`` alone).
ALLOWED = ("sqlalchemy.ext.asyncio", "sqlalchemy.exc", "sqlalchemy.orm.exc")
# The constructors of a statement, called by their name.
BUILDERS = frozenset({"select", "update", "insert", "delete"})


def _allowed(name: str) -> bool:
    return any(name == a or name.startswith(a + ".") for a in ALLOWED)


def statements_in(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Where these modules import SQLAlchemy beyond :data:`ALLOWED`, or call one of its
    statement constructors by name."""
    found = []
    for path in paths:
        where = path.relative_to(root).as_posix()
        here: list[tuple[int, str]] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                # (each name imported, as a dotted path: ``from sqlalchemy import exc`` is sqlalchemy.exc)
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                names = []
            for name in names:
                if (name == "sqlalchemy" or name.startswith("sqlalchemy.")) and not _allowed(name):
                    here.append((node.lineno, f"imports {name}"))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BUILDERS:
                here.append((node.lineno, f"calls {node.func.id}("))
        found += [f"{where}:{line}: {what}" for line, what in sorted(here)]
    return found


def test_the_service_builds_no_statement():
    paths = service_files()
    assert paths and all(p.is_file() for p in paths)
    assert statements_in(paths) == []


def test_the_repositories_package_re_exports_nothing():
    """``bot/db/repos/__init__.py`` is its docstring alone: a use case imports the module
    of the area it needs, never a hub of every query."""
    body = ast.parse((ROOT / "bot" / "db" / "repos" / "__init__.py").read_text(encoding="utf-8")).body
    assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), body


def test_the_check_sees_a_statement(tmp_path):
    """The check above could fail: each import beyond the session's type and the errors,
    and each constructor called by name, is found; a session's delete and a dict's
    update are not. The module is one of the service's as ``service_files`` lists them;
    a feature's cog beside it is not."""
    rogue = tmp_path / "bot" / "features" / "rogue" / "rogue.py"
    rogue.parent.mkdir(parents=True)
    (rogue.parent / "cog.py").write_text("from sqlalchemy import select\n", encoding="utf-8")
    rogue.write_text(
        "from sqlalchemy import select, update\n"
        "from sqlalchemy.dialects import postgresql\n"
        "import sqlalchemy as sa\n"
        "from sqlalchemy.ext.asyncio import AsyncSession\n"
        "from sqlalchemy.exc import IntegrityError\n"
        "from sqlalchemy import exc\n"
        "from sqlalchemy.orm.exc import StaleDataError\n"
        "\n"
        "\n"
        "async def f(s: AsyncSession, row, names):\n"
        "    from sqlalchemy.orm import aliased\n"
        "    await s.execute(select(row))\n"
        "    await s.execute(update(row).values(x=1))\n"
        "    await s.execute(insert(row))\n"
        "    await s.execute(delete(row))\n"
        "    await s.delete(row)\n"
        "    names.update({1: 2})\n",
        encoding="utf-8",
    )
    assert service_files(tmp_path) == [rogue]
    assert statements_in(service_files(tmp_path), tmp_path) == [
        "bot/features/rogue/rogue.py:1: imports sqlalchemy.select",
        "bot/features/rogue/rogue.py:1: imports sqlalchemy.update",
        "bot/features/rogue/rogue.py:2: imports sqlalchemy.dialects.postgresql",
        "bot/features/rogue/rogue.py:3: imports sqlalchemy",
        "bot/features/rogue/rogue.py:11: imports sqlalchemy.orm.aliased",
        "bot/features/rogue/rogue.py:12: calls select(",
        "bot/features/rogue/rogue.py:13: calls update(",
        "bot/features/rogue/rogue.py:14: calls insert(",
        "bot/features/rogue/rogue.py:15: calls delete(",
    ]
