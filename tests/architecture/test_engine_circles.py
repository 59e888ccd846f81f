"""No circle among the engine's modules, counting every import: at the top, inside a
function and under ``if TYPE_CHECKING``, and the package ``__init__`` an import runs
first. The engine's modules can then be read, and type-checked, in one order: the value
types below what names them, the skills' protocol below the combat rules that call its
hooks and the class modules that define them."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.import_circles import circles, graph


def test_the_engine_has_no_import_circle() -> None:
    assert circles(graph("engine", parents=True)) == []


def test_the_check_sees_a_circle(tmp_path: Path) -> None:
    """The check could fail: an import under ``TYPE_CHECKING`` or inside a function is
    an arrow, and so is the package's ``__init__`` that an import of ``p.q.a`` from
    outside ``p.q`` runs first (as the class modules' package would be, imported by the
    combat rules through the skills' protocol, if it held the protocol and imported the
    class modules, which import the combat rules)."""
    tree = {
        "p": "",
        "p.q": "from p.q import b\n",
        "p.q.a": "",
        "p.q.b": "import p.c\n",
        "p.c": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from p.q.a import X\n",
    }
    assert circles(graph_of(tmp_path / "1", tree)) == [["p.c", "p.q", "p.q.b"]]
    assert circles(graph_of(tmp_path / "2", tree | {"p.q": ""})) == []
    in_function = tree | {"p.q": "", "p.c": "def f():\n    import p.q.b\n"}
    assert circles(graph_of(tmp_path / "3", in_function)) == [["p.c", "p.q.b"]]


def graph_of(root: Path, tree: dict[str, str]) -> dict[str, set[str]]:
    """``graph`` of the package ``p`` written out under ``root``: module name -> source."""
    packages = {name for name in tree if any(other.startswith(name + ".") for other in tree)}
    for name, source in tree.items():
        path = root.joinpath(*name.split("."))
        path = path / "__init__.py" if name in packages else path.with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return graph("p", parents=True, root=root)
