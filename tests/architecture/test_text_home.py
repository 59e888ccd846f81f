"""Every sentence a user reads lives in the catalogues (``bot/i18n``): the engine and the
service carry message keys and parameters, never words. Found here: a Chinese character
in a string of their code (docstrings and comments aside), and a dict keyed by locale
(a text in several languages)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.architecture.house import service_files

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "bot/core")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LOCALES = frozenset({"en-US", "zh-CN", "zh-TW"})

# Words the code reads rather than writes: the names of the factions a line-up may be
# typed with (engine.lineup), never shown to anyone.
READ_NOT_SHOWN = {("engine/lineup.py", "FACTION_NAMES")}


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def _read_not_shown(tree: ast.Module, where: str) -> set[int]:
    """The string nodes inside the assignments ``READ_NOT_SHOWN`` names."""
    found: set[int] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and (where, t.id) in READ_NOT_SHOWN for t in targets):
            found |= {id(n) for n in ast.walk(node)}
    return found


def sentences_in(root: Path, packages: tuple[str, ...], files: list[Path] = ()) -> list[str]:  # type: ignore[assignment]
    """Where the code of ``packages`` (and of ``files``) holds words for a user: Chinese
    text in a string that is no docstring, or a dict literal keyed by locale (at module
    level, or holding a text)."""
    out: list[str] = []
    paths = [p for package in packages for p in sorted((root / package).rglob("*.py"))] + list(files)
    if True:
        for path in paths:
            where = path.relative_to(root).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            skip = _docstrings(tree) | _read_not_shown(tree, where)
            top = {id(n) for stmt in tree.body if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) for n in ast.walk(stmt)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip and CJK.search(node.value):
                    out.append(f"{where}:{node.lineno}: Chinese text {node.value[:30]!r}")
                elif isinstance(node, ast.Dict) and _keyed_by_locale(node, id(node) in top):
                    out.append(f"{where}:{node.lineno}: a dict keyed by locale")
    return out


def _keyed_by_locale(node: ast.Dict, module_level: bool) -> bool:
    """A table of texts by locale: at module level, or with a text written in it."""
    return any(
        isinstance(k, ast.Constant) and k.value in LOCALES and (module_level or (isinstance(v, ast.Constant) and isinstance(v.value, str)))
        for k, v in zip(node.keys, node.values, strict=True)
    )


def test_the_engine_and_the_service_hold_no_sentences():
    assert sentences_in(ROOT, PACKAGES) == []
    assert sentences_in(ROOT, (), service_files()) == []


def test_the_check_sees_a_sentence(tmp_path):
    """The check above could fail: each kind of sentence is found, a docstring is not."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(
        '"""模块说明。"""\n\nERRORS = {"error.x": {"en-US": "No.", "zh-CN": "不行。"}}\nWORD = "不行"\n'
        'NAMES = {"en-US": names_en}\n\n\ndef f(v):\n    return {**v, "zh-TW": v["zh-CN"]}\n\n\ndef g():\n    return {"en-US": "Yes."}\n',
        encoding="utf-8",
    )
    found = sentences_in(tmp_path, ("pkg",))
    assert set(found) == {
        "pkg/a.py:3: Chinese text '不行。'",
        "pkg/a.py:3: a dict keyed by locale",
        "pkg/a.py:4: Chinese text '不行'",
        "pkg/a.py:5: a dict keyed by locale",
        "pkg/a.py:13: a dict keyed by locale",
    }
