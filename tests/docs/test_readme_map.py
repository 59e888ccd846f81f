"""The README's "Where things live" map is true of the tree: every path it names exists,
and every package of engine/ and bot/ (and every folder of tests/) is on it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"[\w*.-]+(/[\w*.-]+)*/?")


def _map() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"## Where things live\n\n```\n(.*?)```", text, re.S)
    assert found, "README.md has no 'Where things live' block"
    return found.group(1)


def named_paths() -> set[str]:
    """The paths the map names: a line's first column (names before two spaces, split at
    commas) under the folder of the line one step less indented."""
    paths: set[str] = set()
    parents: dict[int, str] = {}
    for line in _map().splitlines():
        indent = len(line) - len(line.lstrip())
        if not line.strip() or indent % 2 or indent > 4:
            continue  # blank, or the continuation of a description
        column = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        parent = parents.get(indent - 2, "") if indent else ""
        for name in column.split(", "):
            assert NAME.fullmatch(name), f"not a path in the map: {name!r} ({line.strip()!r})"
            paths.add(parent + name)
            if name.endswith("/"):
                parents[indent] = parent + name
    return paths


def test_every_path_on_the_map_exists() -> None:
    paths = named_paths()
    assert {"engine/", "bot/core/", "bot/features/play/", "bot/render/fonts/", "engine/data/classes/*.toml"} <= paths
    missing = [p for p in sorted(paths) if not list(ROOT.glob(p.rstrip("/")))]
    assert not missing, f"README map names what is not there: {missing}"


def test_every_package_is_on_the_map() -> None:
    paths = named_paths()
    # A folder is on the map when it, or anything inside it, is named.
    on_map = {str(parent) for p in paths for parent in [Path(p.rstrip("/")), *Path(p).parents]}
    packages = {
        str(d.relative_to(ROOT))
        for top in ("engine", "bot")
        for d in (ROOT / top).iterdir()
        if d.is_dir() and (d / "__init__.py").exists()
    }
    unmapped = sorted(packages - on_map)
    assert not unmapped, f"packages missing from the README map: {unmapped}"


def test_the_map_lists_every_test_folder() -> None:
    [line] = [ln for ln in _map().splitlines() if ln.startswith("tests/")]
    listed = set(re.findall(r"(\w+)/", line.split(None, 1)[1]))
    listed |= set(re.findall(r"^\s+(\w+)/:", _map(), re.M))
    folders = {d.name for d in (ROOT / "tests").iterdir() if d.is_dir() and list(d.glob("*.py"))}
    assert folders == listed, f"on the map but not there: {sorted(listed - folders)}; not on the map: {sorted(folders - listed)}"
